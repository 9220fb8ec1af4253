/** The service's events: typed listeners, each subscription returning its disposer (STYLE.md principle 4). */
import type { ArborEvents, EventName, EventSource } from '../../shared/contract';

export interface EventHub extends EventSource {
  emit<E extends EventName>(event: E, payload: ArborEvents[E]): void;
}

export function createEventHub(): EventHub {
  const listeners = new Map<EventName, Set<(payload: never) => void>>();
  return {
    on(event, listener) {
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      set.add(listener);
      return () => void set.delete(listener);
    },
    emit(event, payload) {
      for (const listener of [...(listeners.get(event) ?? [])]) {
        try {
          (listener as (value: typeof payload) => void)(payload);
        } catch {
          // A failing listener (a closed window, a dropped socket) must not break the operation emitting.
        }
      }
    },
  };
}
