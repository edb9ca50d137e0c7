import type { Gateway } from "../gateway/gateway.ts";

const listeners = new WeakMap<Gateway, Set<() => void>>();

/**
 * Saved skills are listed as resources (`toolscript://skills/<name>.ts`): each
 * front end hears when one is saved, to tell its clients their resource list
 * changed (a shared skill is in everyone's list). Returns the removal.
 */
export function onSkillsChanged(gateway: Gateway, listener: () => void): () => void {
  let set = listeners.get(gateway);
  if (!set) {
    set = new Set();
    listeners.set(gateway, set);
  }
  set.add(listener);
  return () => set.delete(listener);
}

/** A skill of this gateway was saved (or removed). */
export function skillsChanged(gateway: Gateway): void {
  for (const listener of listeners.get(gateway) ?? []) listener();
}
