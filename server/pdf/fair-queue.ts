// The PDF layout thread's queue, fair across accounts (docs/decisions/056). Each owner holds a
// share (jobs waiting or being laid out, at most `perOwner`); the next job is the oldest of the
// owner served least recently (owners take turns). A full queue does not keep a newcomer out
// while someone holds more than their fair part of it: the newcomer takes the place of that
// owner's newest waiting job (two accounts with two jobs each held all four places, and an
// admin's 27 reports were all refused). An administrator's job takes the place
// of anyone's who is not one: their reports never wait behind a queue of clients.

/** A job's owner: a user name, or a key of its own for a job of nobody's. */
export type Owner = string | symbol;

export type Queued = { owner: Owner; staff: boolean };

/** What became of a job offered to the queue. */
export type Admission<T> = { admitted: true; displaced: T | null } | { admitted: false; refusal: 'share' | 'busy' };

export function createFairQueue<T extends Queued>({ maxWaiting, perOwner }: { maxWaiting: number; perOwner: number }) {
  const waiting: T[] = [];
  /** Jobs of each owner waiting or running: their share. */
  const held = new Map<Owner, number>();
  /** When each owner with jobs held last had one started (a count of starts): the least recent goes next. */
  const lastStart = new Map<Owner, number>();
  let starts = 0;

  const heldBy = (owner: Owner) => held.get(owner) ?? 0;

  /** The job leaves its owner's share (done, failed, displaced, or abandoned while waiting). */
  function release(owner: Owner) {
    const left = heldBy(owner) - 1;
    if (left > 0) held.set(owner, left);
    else {
      held.delete(owner);
      lastStart.delete(owner);
    }
  }

  /**
   * The waiting job whose place `item` may take in a full queue: an administrator's takes the
   * newest of someone who is not one; otherwise the newest job of the owner holding the most,
   * when they hold at least two more than `item`'s owner (so that the swap never swings back).
   */
  function placeFor(item: T): number {
    const mine = heldBy(item.owner);
    let chosen = -1;
    let chosenRank = 0;
    for (let i = waiting.length - 1; i >= 0; i--) {
      const other = waiting[i]!;
      if (other.owner === item.owner) continue;
      const outranked = item.staff && !other.staff;
      if (!outranked && (other.staff !== item.staff || heldBy(other.owner) < mine + 2)) continue;
      // Clients' jobs before staff's, then the largest share; the newest job among equals (the loop runs newest first).
      const rank = (outranked ? 1_000_000 : 0) + heldBy(other.owner);
      if (rank > chosenRank) {
        chosen = i;
        chosenRank = rank;
      }
    }
    return chosen;
  }

  return {
    release,
    size: () => waiting.length,
    held: heldBy,
    /**
     * Offers a job: refused when its owner has their share ('share'), or when the queue is full
     * and no place can be taken ('busy'); admitted, with the job it displaced, if any (which has
     * left the queue and its owner's share). `busy`: a job is being laid out now.
     */
    admit(item: T, busy: boolean): Admission<T> {
      if (heldBy(item.owner) >= perOwner) return { admitted: false, refusal: 'share' };
      let displaced: T | null = null;
      if (busy && waiting.length >= maxWaiting) {
        const place = placeFor(item);
        if (place === -1) return { admitted: false, refusal: 'busy' };
        displaced = waiting.splice(place, 1)[0]!;
        release(displaced.owner);
      }
      held.set(item.owner, heldBy(item.owner) + 1);
      waiting.push(item);
      return { admitted: true, displaced };
    },
    /** Stops waiting (its client went away); false when it was no longer waiting. */
    withdraw(item: T): boolean {
      const index = waiting.indexOf(item);
      if (index === -1) return false;
      waiting.splice(index, 1);
      release(item.owner);
      return true;
    },
    /** The job to start, now counted as its owner's latest start. */
    take(): T | undefined {
      let chosen = -1;
      for (let i = 0; i < waiting.length; i++) {
        const turn = lastStart.get(waiting[i]!.owner) ?? -1;
        if (chosen === -1 || turn < (lastStart.get(waiting[chosen]!.owner) ?? -1)) chosen = i;
      }
      if (chosen === -1) return undefined;
      const [pending] = waiting.splice(chosen, 1);
      lastStart.set(pending!.owner, ++starts);
      return pending;
    },
    /** Every waiting job, out of the queue and of its owner's share. */
    drain(): T[] {
      const all = waiting.splice(0);
      for (const item of all) release(item.owner);
      return all;
    },
  };
}
