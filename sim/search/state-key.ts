// The canonical key of a world between two steps: everything the enabled actions, the target, the monitors and
// the liveness phase read, so that two worlds with equal keys behave the same from there on and an exhaustive
// search may explore only one of them. What the key leaves out, and why, is in WORLD_FIELDS below.

import { MODEL } from '../../model/index.ts';
import type { StateKeyWriter } from '../../targets/target.ts';
import type { SimConnection, SimExecution, World } from '../world.ts';

/**
 * How each field of the world enters the key. A field the table does not name is written in full (the safe
 * default: a new field can only make keys differ more, never merge worlds that differ).
 */
export const WORLD_FIELDS = {
  config: 'omitted: the same for every world of one exploration',
  run: 'omitted: the same for every world of one exploration',
  checked: 'omitted: the same for every world of one exploration',
  notes: 'omitted: readable notes of a recorded step, read by nothing',
  step: 'omitted: the depth, which the search keeps beside the key',
  acting: "omitted: the action kind of the step under way, set as each step begins, before anything reads it (only a finding's signature does)",
  violation: 'omitted: a world with a violation is never expanded',
  inbox: 'omitted: empty between steps',
  callAnswers: "omitted: counted for coverage only (a fuzz in which no call was answered says so); no action, target answer or property reads it",
  callsById: 'omitted: the calls by ID, derived from `calls`',
  attached: 'written with `connections`',
  views:
    "every view, named by its client and its place among that client's views (so are the view numbers held elsewhere), in name order: the order two clients created views in is only how their actions interleaved",
  eventOwners: 'sorted by event ID: the map is only looked up',
  running: 'written with `executions`: the running executions in the order they started',
  connections:
    "only live connections (attached ones and those losing their tail), in name order, without the Last-Event-ID they were opened with (judged when the response came; later only no-hang's explanation and a finding's signature read it) or the action kind that opened them (read only for a signature): a losing connection is not in `attached` but is still read (each frame written into it counts down its `framesToLose`, the last one breaks it, a node crash or the liveness phase cuts it, and its break cancels a 2026-07-28 execution); any other connection is read by nothing again (its frames and ends are dropped, no property or action looks it up); connection numbers are names (the target and the properties only compare them), written as the connection's client and view",
  executions:
    'only running executions: a finished one is never advanced again; execution numbers are names, written as their place among the running',
  server: "the target's own key (ServerInstance.stateKey); without one the world has no key",
  serverRandom: "the PRNG's state: the target's future session IDs",
} as const;

/** How a field of a plain object enters the key, besides its name: as a value, or as a name it stands for. */
const PLAIN = 0;
/** A number in a field named `connection`: a connection, written by its canonical name. */
const CONNECTION = 1;
/** A number in `view`, `standaloneView` or `completedView`: a view, written by its canonical name. */
const VIEW = 2;
/** The numbers of `views`: views, each written by its canonical name. */
const VIEWS = 3;
/** A call's request `body`: derived from its request id, tool and call ID, which are written. */
const BODY = 4;

/** A field name's hash (mixed as one unit) and how its values are written. */
interface FieldRule {
  readonly unit: number;
  readonly role: number;
}

/**
 * What keying remembers across worlds, in one thread of one exploration: each field name's hash and role (names
 * repeat in every world, and mixing them character by character was most of a key's cost), the names views and
 * executions are written as, and one writer whose tables are emptied for each world instead of made anew. Two field
 * names with the same 32-bit hash would only make some keys of differently shaped objects alike, and every world's
 * objects have the shapes the code gives them.
 */
export class KeyNames {
  readonly fields = new Map<string, FieldRule>();
  /** View names by client, then by the view's place among that client's views. */
  readonly viewNames: string[][] = [];
  /** Execution names by place among the running executions. */
  readonly executionNames: string[] = [];
  writer: KeyWriter | null = null;

  /** A field name's rule, made the first time the name is met. */
  rule(field: string): FieldRule {
    let rule = this.fields.get(field);
    if (rule === undefined) {
      let unit = 0x811c9dc5;
      for (let index = 0; index < field.length; index += 1) unit = Math.imul(unit ^ field.charCodeAt(index), 16777619);
      const role = field === 'connection' ? CONNECTION : VIEW_FIELDS.has(field) ? VIEW : field === 'views' ? VIEWS : field === 'body' ? BODY : PLAIN;
      rule = { unit, role };
      this.fields.set(field, rule);
    }
    return rule;
  }

  viewName(client: number, ordinal: number): string {
    const names = (this.viewNames[client] ??= []);
    return (names[ordinal] ??= `v${client}.${ordinal}`);
  }

  executionName(place: number): string {
    return (this.executionNames[place] ??= `r${place}`);
  }
}

/** Why a world has no key: its target cannot describe its state. */
export const NO_TARGET_KEY = 'the target offers no state key (ServerInstance.stateKey): only the full search applies';

/**
 * Writes values as tokens into two running hashes (and, for a readable key, into text), each object once (later
 * occurrences refer back to it), Maps and Sets in their order. Hashing as it goes keeps keying cheap: a key is
 * never built as a string unless asked for. The token stream reads back one way only (every token starts with its
 * tag, strings carry their length, objects end with a tag of their own), so different worlds write different streams.
 * One writer serves every world of a thread ({@link KeyWriter.begin} empties it).
 */
class KeyWriter implements StateKeyWriter {
  private h1 = 0xdeadbeef;
  private h2 = 0x41c6ce57;
  private check = 0x811c9dc5;
  text: string[] | null = null;
  private readonly seen = new Map<object, number>();
  private readonly connectionNames = new Map<number, string>();
  private readonly executionNames = new Map<number, string>();
  /** View names by view number (a view's number is its place in `world.views`). */
  private readonly viewNames: string[] = [];
  /** The live connections: the attached ones in attach order, then those losing their tail in number order. */
  readonly live: number[] = [];
  private readonly wanted = new Map<number, string>();
  private readonly uses = new Map<string, number>();
  /** A double's two 32-bit halves, read through one reused buffer. */
  private readonly float = new Float64Array(1);
  private readonly halves = new Uint32Array(this.float.buffer);

  constructor(readonly names: KeyNames) {}

  /** Starts the key of `world`: the hashes and tables emptied, its views, connections and executions named. */
  begin(world: World, text: string[] | null): void {
    this.h1 = 0xdeadbeef;
    this.h2 = 0x41c6ce57;
    this.check = 0x811c9dc5;
    this.text = text;
    this.seen.clear();
    this.connectionNames.clear();
    this.executionNames.clear();
    this.live.length = 0;
    this.wanted.clear();
    this.uses.clear();
    const names = this.names;
    // Views are named by their client and their place among that client's views: the order in which two
    // clients' actions interleave does not change them.
    const viewNames = this.viewNames;
    viewNames.length = 0;
    const perClient: number[] = [];
    for (const view of world.views) {
      const ordinal = perClient[view.client] ?? 0;
      perClient[view.client] = ordinal + 1;
      viewNames[view.index] = names.viewName(view.client, ordinal);
    }
    // A live connection is named by its client and the view it feeds (or what it was opened for); names two
    // connections would share get their place in the attach order too, so naming stays one to one. One losing its
    // tail is live as well (not in `attached`): what the server writes next decides when it breaks.
    const live = this.live;
    for (const index of world.attached) live.push(index);
    for (const connection of world.connections) if (connection.state === LOSING) live.push(connection.index);
    const { wanted, uses } = this;
    for (const index of live) {
      const connection = world.connections[index]!;
      const name = `k${connection.client}:${connection.view >= 0 ? this.view(connection.view) : connection.purpose}`;
      wanted.set(index, name);
      uses.set(name, (uses.get(name) ?? 0) + 1);
    }
    let place = 0;
    for (const [index, name] of wanted) {
      this.connectionNames.set(index, uses.get(name) === 1 ? name : `${name}#${place}`);
      place += 1;
    }
    for (let at = 0; at < world.running.length; at += 1) this.executionNames.set(world.running[at]!, names.executionName(at));
  }

  /** A view's canonical name. */
  view(view: number): string {
    return this.viewNames[view] ?? `w${view}`;
  }

  connection(connection: number): string {
    // A connection that is not live keeps its number: distinct from every live one's name.
    return this.connectionNames.get(connection) ?? `n${connection}`;
  }

  /** A live connection's canonical name; one that is not live, whatever its number, is `-`. */
  liveConnection(connection: number): string {
    return this.connectionNames.get(connection) ?? '-';
  }

  execution(execution: number): string | null {
    return this.executionNames.get(execution) ?? null;
  }

  /** Mixes one 32-bit unit into the three hashes (cyrb53's two lanes, FNV-1a for the check). */
  private mix(unit: number): void {
    this.h1 = Math.imul(this.h1 ^ unit, 2654435761);
    this.h2 = Math.imul(this.h2 ^ unit, 1597334677);
    this.check = Math.imul(this.check ^ unit, 16777619);
  }

  /**
   * A tag (one of a few letters) and a string: tagged and length-prefixed, so no two token sequences mix alike; two
   * UTF-16 code units a mixed unit (the length says whether the last unit holds one or two).
   */
  token(tag: number, value: string): void {
    this.mix(tag);
    const length = value.length;
    this.mix(length);
    let index = 0;
    for (; index + 1 < length; index += 2) this.mix(value.charCodeAt(index) | (value.charCodeAt(index + 1) << 16));
    if (index < length) this.mix(value.charCodeAt(index));
    if (this.text !== null) this.text.push(String.fromCharCode(tag) + value);
  }

  /** A tag and a field name, mixed as one unit: its own hash, computed once per exploration. */
  private name(tag: number, field: string, unit: number): void {
    this.mix(tag);
    this.mix(unit);
    if (this.text !== null) this.text.push(String.fromCharCode(tag) + field);
  }

  /** One of the world's own fields, by name. */
  section(field: string): void {
    this.name(0x7c, field, this.names.rule(field).unit);
  }

  /** A tag and a small whole number (a length, a back reference). */
  counted(tag: number, count: number): void {
    this.mix(tag);
    this.mix(count);
    if (this.text !== null) this.text.push(String.fromCharCode(tag) + count);
  }

  /** A tag alone (an object's end, a value with nothing more to say: null, undefined, a function). */
  private tag(tag: number, text: string): void {
    this.mix(tag);
    if (this.text !== null) this.text.push(text);
  }

  private number(value: number): void {
    if ((value | 0) === value) {
      this.mix(0x69);
      this.mix(value);
      if (this.text !== null) this.text.push(String(value));
      return;
    }
    // Any other number by its 64 bits (NaN by whichever bits it has: at worst two worlds are kept apart).
    this.float[0] = value;
    this.mix(0x64);
    this.mix(this.halves[0]!);
    this.mix(this.halves[1]!);
    if (this.text !== null) this.text.push(`d${value}`);
  }

  value(value: unknown): void {
    switch (typeof value) {
      case 'number':
        this.number(value);
        return;
      case 'string':
        this.token(0x73, value);
        return;
      case 'boolean':
        this.mix(0x62);
        this.mix(value ? 1 : 0);
        if (this.text !== null) this.text.push(value ? 'bT' : 'bF');
        return;
      case 'undefined':
        this.tag(0x75, 'u');
        return;
      case 'bigint':
        this.token(0x6e, String(value));
        return;
      case 'function':
      case 'symbol':
        // Behaviour, not state: the same functions for every world of one exploration.
        this.tag(0x66, 'f');
        return;
    }
    if (value === null) {
      this.tag(0x4e, 'N');
      return;
    }
    const object = value as object;
    const known = this.seen.get(object);
    if (known !== undefined) {
      this.counted(0x23, known);
      return;
    }
    this.seen.set(object, this.seen.size);
    if (Array.isArray(object)) {
      const length = object.length;
      this.counted(0x5b, length);
      for (let index = 0; index < length; index += 1) this.value(object[index]);
    } else if (object instanceof Map) {
      this.counted(0x4d, object.size);
      for (const [key, item] of object) {
        this.value(key);
        this.value(item);
      }
    } else if (object instanceof Set) {
      this.counted(0x53, object.size);
      for (const item of object) this.value(item);
    } else if (ArrayBuffer.isView(object)) {
      this.token(0x42, Array.from(object as unknown as ArrayLike<number>).join(','));
    } else {
      this.fields(object as Record<string, unknown>);
    }
  }

  /**
   * A plain object's enumerable fields in their order, then an end tag. A number in a field named `connection` is a
   * connection, one in `view`, `standaloneView` or `completedView` (or the numbers of `views`) a view: each written
   * by its name. (Enumerated with for-in, which lists no array of keys; an inherited enumerable field, which plain
   * objects do not have, would only be written too.)
   */
  fields(object: Record<string, unknown>, skip: ReadonlySet<string> | null = null): void {
    const names = this.names;
    this.mix(0x7b);
    if (this.text !== null) this.text.push('{');
    for (const field in object) {
      if (skip !== null && skip.has(field)) continue;
      const rule = names.rule(field);
      const item = object[field];
      switch (rule.role) {
        case BODY:
          if ('requestId' in object && 'tool' in object && 'session' in object) continue;
          this.name(0x2e, field, rule.unit);
          this.value(item);
          break;
        case CONNECTION:
          this.name(0x2e, field, rule.unit);
          if (typeof item === 'number') this.token(0x63, item < 0 ? '-' : this.connection(item));
          else this.value(item);
          break;
        case VIEW:
          this.name(0x2e, field, rule.unit);
          if (typeof item === 'number') this.token(0x76, item < 0 ? '-' : this.view(item));
          else this.value(item);
          break;
        case VIEWS:
          this.name(0x2e, field, rule.unit);
          if (Array.isArray(item) && item.every((entry) => typeof entry === 'number')) {
            this.counted(0x5b, item.length);
            for (const entry of item as number[]) this.token(0x76, this.view(entry));
          } else this.value(item);
          break;
        default:
          this.name(0x2e, field, rule.unit);
          this.value(item);
      }
    }
    this.tag(0x7d, '}');
  }

  /** The 53-bit hash and the 32-bit check of everything written. */
  digest(): WorldKey {
    let h1 = this.h1;
    let h2 = this.h2;
    h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
    h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
    return { hash: 4294967296 * (2097151 & h2) + (h1 >>> 0), check: this.check >>> 0 };
  }
}

/**
 * A world's key as a 53-bit hash and an independent 32-bit check (cyrb53 and FNV-1a over the same tokens): the
 * keys themselves would take gigabytes at depth 8, and the pair collides about once in 2^85 pairs of worlds.
 */
export interface WorldKey {
  readonly hash: number;
  readonly check: number;
}

const INDEX = new Set(['index']);
const LOSING = MODEL.connection.state.losing;
const VIEW_FIELDS: ReadonlySet<string> = new Set(['view', 'standaloneView', 'completedView']);
// The Last-Event-ID an attached connection was opened with was judged when its response came; later only no-hang's
// explanation quotes it and its signature reads it. The action kind that opened it is read only for signatures.
const CONNECTION_OMITTED = new Set(['index', 'lastEventId', 'openedBy']);

function byName(left: readonly [string, unknown], right: readonly [string, unknown]): number {
  return left[0] < right[0] ? -1 : left[0] > right[0] ? 1 : 0;
}

function writeConnection(writer: KeyWriter, connection: SimConnection): void {
  writer.token(0x40, writer.connection(connection.index));
  writer.fields(connection as unknown as Record<string, unknown>, CONNECTION_OMITTED);
}

// The exchange whose request started an execution matters only while it is live (its cut, or the break of a lost
// tail, cancels a 2026-07-28 execution): its canonical name then, else nothing, so equal worlds numbered apart still
// merge.
const EXECUTION_OMITTED = new Set(['index', 'connection']);

function writeExecution(writer: KeyWriter, execution: SimExecution): void {
  writer.token(0x40, writer.execution(execution.index)!);
  writer.fields(execution as unknown as Record<string, unknown>, EXECUTION_OMITTED);
  writer.token(0x40, writer.liveConnection(execution.connection));
}

/** The world's fields the key leaves out (WORLD_FIELDS' rules that say `omitted`). */
const WORLD_OMITTED: ReadonlySet<string> = new Set(Object.entries(WORLD_FIELDS).flatMap(([field, rule]) => (rule.startsWith('omitted') ? [field] : [])));

function writeWorld(world: World, writer: KeyWriter): void {
  const server = world.server;
  if (world.inbox.length > 0) throw new Error('a world is keyed only between steps, with its inbox empty');
  const fields = world as unknown as Record<string, unknown>;
  for (const field in fields) {
    if (WORLD_OMITTED.has(field)) continue;
    writer.section(field);
    switch (field) {
      case 'attached':
      case 'running':
        break;
      case 'connections': {
        // In name order: the attach order of two clients' connections says only how their actions interleaved.
        const named = writer.live.map((index) => [writer.connection(index), index] as const).sort(byName);
        for (const [, index] of named) writeConnection(writer, world.connections[index]!);
        break;
      }
      case 'views': {
        const named = world.views.map((view) => [writer.view(view.index), view] as const).sort(byName);
        writer.counted(0x5b, named.length);
        for (const [name, view] of named) {
          writer.token(0x40, name);
          writer.fields(view as unknown as Record<string, unknown>, INDEX);
        }
        break;
      }
      case 'eventOwners': {
        // Looked up by ID only: the order IDs were first delivered in is not state. (The default sort compares
        // strings by UTF-16 code units, as `<` does.)
        const owners = world.eventOwners;
        const eventIds = [...owners.keys()].sort();
        writer.counted(0x4d, eventIds.length);
        for (const eventId of eventIds) {
          writer.value(eventId);
          writer.value(owners.get(eventId));
        }
        break;
      }
      case 'executions':
        for (const index of world.running) writeExecution(writer, world.executions[index]!);
        break;
      case 'server':
        server.stateKey!(writer);
        break;
      case 'serverRandom':
        writer.value(world.serverRandom.state());
        break;
      default:
        writer.value(fields[field]);
    }
  }
}

/**
 * The key of a world between steps of the fault phase, or null when its target offers no state key. Equal keys
 * mean equal futures: the same actions enabled, the same answers, the same monitor verdicts.
 */
export function worldKey(world: World, names: KeyNames = new KeyNames()): WorldKey | null {
  if (world.server.stateKey === undefined) return null;
  const writer = (names.writer ??= new KeyWriter(names));
  writer.begin(world, null);
  writeWorld(world, writer);
  return writer.digest();
}

/** The key as text, one token after another: for tests and for finding out why two worlds differ. */
export function worldKeyText(world: World): string | null {
  if (world.server.stateKey === undefined) return null;
  const text: string[] = [];
  const writer = new KeyWriter(new KeyNames());
  writer.begin(world, text);
  writeWorld(world, writer);
  return text.join(' ');
}
