// How many downloads of one kind run at once in this process: at most `perUser` for one user
// and, when given, `total` for everyone. A slot is held until its response closes (finished,
// failed, ended for stalling or abandoned by the client), so that a download can never leak one.
// Counted per process: with several instances each has its own, and the per-hour limits in the
// database (shared by all) bound what one user can start in total.
import type { Response } from 'express';

/** Why a slot was refused: the user has all theirs (429), or the process is at its cap (503). */
export type SlotRefusal = 'user' | 'process';

export type DownloadSlots = {
  /** Takes a slot of `userName` for the response, freed when it closes; or says why not. */
  take(userName: string, res: Response): SlotRefusal | null;
  /** Downloads running, of one user or of everyone. */
  running(userName?: string): number;
};

export function downloadSlots(limits: { perUser: number; total?: number }): DownloadSlots {
  const byUser = new Map<string, number>();
  let all = 0;
  return {
    take(userName, res) {
      // A client gone already would never free it ('close' has been emitted): nothing to serve.
      if (res.closed) return 'user';
      const mine = byUser.get(userName) ?? 0;
      if (mine >= limits.perUser) return 'user';
      if (limits.total !== undefined && all >= limits.total) return 'process';
      byUser.set(userName, mine + 1);
      all++;
      res.once('close', () => {
        all--;
        const left = (byUser.get(userName) ?? 1) - 1;
        if (left > 0) byUser.set(userName, left);
        else byUser.delete(userName);
      });
      return null;
    },
    running(userName) {
      return userName === undefined ? all : (byUser.get(userName) ?? 0);
    },
  };
}
