/**
 * Callers waiting, each for at most a time of its own, for a value under a key (the fuzzing server's
 * /getCaseStatus waits for a case's result): the first value given for the key answers them all;
 * a caller whose time runs out, or every caller when the waiters are ended, gets null. Each caller
 * is answered once.
 */
export class KeyedWaiters<T> {
  private readonly waiting = new Map<string, Array<(value: T | null) => void>>();

  /** Calls back with the value given for `key` within `ms`, or with null. */
  wait(key: string, ms: number, callback: (value: T | null) => void): void {
    let done = false;
    const once = (value: T | null): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      callback(value);
    };
    const timer = setTimeout(() => {
      const list = this.waiting.get(key)?.filter((w) => w !== once) ?? [];
      if (list.length > 0) this.waiting.set(key, list);
      else this.waiting.delete(key);
      once(null);
    }, ms);
    this.waiting.set(key, [...(this.waiting.get(key) ?? []), once]);
  }

  /** Answers every caller waiting for `key` with `value`. */
  give(key: string, value: T): void {
    const list = this.waiting.get(key);
    this.waiting.delete(key);
    for (const w of list ?? []) w(value);
  }

  /** Answers every caller with null. */
  end(): void {
    const lists = [...this.waiting.values()];
    this.waiting.clear();
    for (const list of lists) for (const w of list) w(null);
  }
}
