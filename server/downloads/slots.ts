// How many downloads (or uploads) of one kind run at once in this process: when given, at most
// `perUser` for one user and `total` for everyone. A slot is held until its response closes
// (finished, failed, ended for stalling or abandoned by the client), so that a request can never
// leak one. Counted per process: with several instances each has its own, and the per-hour
// limits in the database (shared by all) bound what one user can start in total.
import type { Response } from 'express';

/** Why a slot was refused: the user has all theirs (429), or the process is at its cap (503). */
export type SlotRefusal = 'user' | 'process';

export type DownloadSlots = {
  /** Takes a slot of `userName` for the response, freed when it closes; or says why not. */
  take(userName: string, res: Response): SlotRefusal | null;
  /**
   * As `take`, but a request refused because the process is at its cap waits up to `waitMs` for
   * a slot, in the order asked; 'process' when none came in time, 'user' when its client left.
   */
  wait(userName: string, res: Response, waitMs: number): Promise<SlotRefusal | null>;
  /** Downloads running, of one user or of everyone. */
  running(userName?: string): number;
};

export function downloadSlots(limits: { perUser?: number; total?: number }): DownloadSlots {
  const byUser = new Map<string, number>();
  let all = 0;
  // Those waiting for a slot, first come first served: each says whether it took the freed slot.
  const waiting: (() => boolean)[] = [];

  function take(userName: string, res: Response): SlotRefusal | null {
    // A client gone already would never free it ('close' has been emitted): nothing to serve.
    if (res.closed) return 'user';
    const mine = byUser.get(userName) ?? 0;
    if (limits.perUser !== undefined && mine >= limits.perUser) return 'user';
    if (limits.total !== undefined && all >= limits.total) return 'process';
    byUser.set(userName, mine + 1);
    all++;
    res.once('close', () => {
      all--;
      const left = (byUser.get(userName) ?? 1) - 1;
      if (left > 0) byUser.set(userName, left);
      else byUser.delete(userName);
      // The freed slot goes to the first waiting request that can take it.
      while (waiting.length > 0 && !waiting.shift()!()) {
        // That one was refused for its user, or left: the next one is asked.
      }
    });
    return null;
  }

  function wait(userName: string, res: Response, waitMs: number): Promise<SlotRefusal | null> {
    const refused = take(userName, res);
    if (refused !== 'process' || waitMs <= 0) return Promise.resolve(refused);
    return new Promise((resolve) => {
      const done = (answer: SlotRefusal | null) => {
        clearTimeout(timer);
        res.off('close', left);
        const at = waiting.indexOf(turn);
        if (at >= 0) waiting.splice(at, 1);
        resolve(answer);
      };
      const turn = () => {
        const answer = take(userName, res);
        done(answer);
        return answer === null;
      };
      const left = () => done('user');
      const timer = setTimeout(() => done('process'), waitMs);
      res.once('close', left);
      waiting.push(turn);
    });
  }

  return {
    take,
    wait,
    running(userName) {
      return userName === undefined ? all : (byUser.get(userName) ?? 0);
    },
  };
}
