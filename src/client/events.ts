/** A typed event emitter, small enough for the browser: `on` returns the function that removes the listener. */

/** A listener of one event. */
export type Listener<T> = (payload: T) => void;

export class Events<EventMap> {
  private readonly listeners = new Map<keyof EventMap, Set<Listener<never>>>();

  /** Call `listener` on every `event` until the returned function is called. */
  on<K extends keyof EventMap>(event: K, listener: Listener<EventMap[K]>): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(listener as Listener<never>);
    return () => void set.delete(listener as Listener<never>);
  }

  /**
   * Call every listener of `event`. One that throws does not stop the others nor the caller's
   * bookkeeping: its error is thrown again on its own, as an uncaught error of the listener.
   */
  emit<K extends keyof EventMap>(event: K, payload: EventMap[K]): void {
    for (const listener of [...(this.listeners.get(event) ?? [])]) {
      try {
        (listener as Listener<EventMap[K]>)(payload);
      } catch (error) {
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  }
}
