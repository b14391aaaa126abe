// The name of a store module as a target, `module:<path>[#export][+shared][+durable]`: all a trace needs to name the
// store it ran (at the server level inside the SDK transport, or at the store level). Light, so that reading a trace
// does not load the SDK.

import { type StoreModuleRef, displayPath } from './store-module.ts';

/** The prefix of every module target's name. */
export const MODULE_TARGET_PREFIX = 'module:';
/** What a factory given as a function (not a module) is called in target names: it cannot be replayed by name. */
export const FUNCTION_SOURCE_LABEL = '(function)';

/** `module:<path>[#export][+shared][+durable]`; a function source is `module:(function)`. */
export function moduleTargetName(ref: StoreModuleRef | null, options: { shared: boolean; durable?: boolean }): string {
  const where = ref === null ? FUNCTION_SOURCE_LABEL : `${displayPath(ref.path)}${ref.exportName === null ? '' : `#${ref.exportName}`}`;
  return `${MODULE_TARGET_PREFIX}${where}${options.shared ? '+shared' : ''}${options.durable === true ? '+durable' : ''}`;
}

/** Reads a module target's name back; null when `name` is not one. */
export function parseModuleTargetName(name: string): { ref: StoreModuleRef; shared: boolean; durable: boolean } | null {
  if (!name.startsWith(MODULE_TARGET_PREFIX)) return null;
  let rest = name.slice(MODULE_TARGET_PREFIX.length);
  const durable = rest.endsWith('+durable');
  if (durable) rest = rest.slice(0, -'+durable'.length);
  const shared = rest.endsWith('+shared');
  if (shared) rest = rest.slice(0, -'+shared'.length);
  const hash = rest.lastIndexOf('#');
  const exportName = hash >= 0 && /^[A-Za-z_$][\w$]*$/.test(rest.slice(hash + 1)) ? rest.slice(hash + 1) : null;
  const path = exportName === null ? rest : rest.slice(0, hash);
  return { ref: { path, exportName }, shared, durable };
}
