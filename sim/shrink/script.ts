// Scripted runs: a hand-made trace as a list of action descriptions ("client 1 calls append"), resolved at each
// step against the enabled actions. For tests, bug reports, and reproducing an incident step by step.

import { type ActionList, describeAction } from '../actions.ts';
import type { ChoiceSource, ChoiceWorld } from '../engine.ts';

/** An enabled action's description, by the level the world belongs to (another level describes its own actions). */
function describeIn(world: ChoiceWorld, list: ActionList, index: number): string {
  const kind = list.kind[index]!;
  const a = list.a[index]!;
  const b = list.b[index]!;
  return 'describeAction' in world ? world.describeAction(kind, a, b) : describeAction(world, kind, a, b);
}

/** A step of a script that matches no enabled action: a mistake in the script. */
export class ScriptError extends Error {
  override readonly name = 'ScriptError';
}

/**
 * Follows a list of action descriptions where it can: at each step the enabled action described the same way,
 * else the recorded choice (reduced modulo the enabled actions). Shrinking uses it to delete a step without
 * changing what the later steps mean.
 */
export function describedChoices(descriptions: readonly string[], fallback: readonly number[]): ChoiceSource {
  let next = 0;
  return {
    choose: (world, list) => {
      if (next >= descriptions.length) return null;
      const wanted = descriptions[next]!;
      const recorded = fallback[next] ?? 0;
      next += 1;
      const wantedShape = shapeOf(wanted);
      const wantedNumbers = numbersOf(wanted);
      let best = -1;
      let bestDistance = Infinity;
      for (let index = 0; index < list.count; index += 1) {
        const description = describeIn(world, list, index);
        if (description === wanted) return index;
        // Removing an earlier step renumbers what came after it (connection #6 becomes #4, c3 becomes c2):
        // the same action, differently numbered, is the one with the same words and the nearest numbers.
        if (shapeOf(description) !== wantedShape) continue;
        const numbers = numbersOf(description);
        let distance = 0;
        for (let at = 0; at < numbers.length; at += 1) distance += Math.abs(numbers[at]! - (wantedNumbers[at] ?? 0));
        if (distance < bestDistance) {
          best = index;
          bestDistance = distance;
        }
      }
      return best >= 0 ? best : recorded % list.count;
    },
  };
}

const NUMBER = /\d+/g;

/** A description with its numbers taken out: what kind of action on what kind of thing. */
function shapeOf(description: string): string {
  return description.replace(NUMBER, '#');
}

function numbersOf(description: string): number[] {
  return (description.match(NUMBER) ?? []).map(Number);
}

/**
 * Choices from a script. Each entry must equal the description of exactly one enabled action, or be a prefix
 * of exactly one; the error lists what was enabled otherwise.
 */
export function scriptChoices(script: readonly string[]): ChoiceSource {
  let next = 0;
  return {
    choose: (world, list) => {
      if (next >= script.length) return null;
      const wanted = script[next]!;
      next += 1;
      const descriptions: string[] = [];
      for (let index = 0; index < list.count; index += 1) descriptions.push(describeIn(world, list, index));
      const exact = descriptions.flatMap((description, index) => (description === wanted ? [index] : []));
      if (exact.length === 1) return exact[0]!;
      // A prefix must end where a word does: "connection #1" must not pick "connection #10".
      const prefixed = descriptions.flatMap((description, index) =>
        description.startsWith(wanted) && !/[\w#]/.test(description.charAt(wanted.length)) ? [index] : [],
      );
      if (prefixed.length === 1) return prefixed[0]!;
      throw new ScriptError(`step ${next}: ${JSON.stringify(wanted)} matches ${prefixed.length} enabled actions; enabled: ${descriptions.map((d) => JSON.stringify(d)).join(', ')}`);
    },
  };
}

/**
 * The action descriptions of a scenario file: one a line, as traces print them (a step number may stay); `#` starts
 * a comment unless a digit follows it (`connection #3` is part of an action).
 */
export function parseScript(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.replace(/#(?!\d).*$/, '').replace(/^\s*\d+\.\s*/, '').trim())
    .filter((line) => line !== '');
}
