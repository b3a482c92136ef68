// How long to wait before trying again, said as people say it: "45 segundos", "9 minutos",
// "2 horas" — never "dentro de 505 segundos". The figure is rounded up, so a person told
// "9 minutes" is never refused again for waiting as long as they were told.
import type { Translate } from './translate.ts';

/** The phrase for `seconds` (a Retry-After): seconds under 90 s, whole minutes under 90 minutes, whole hours beyond. */
export function waitPhrase(t: Translate, seconds: number): string {
  const wait = Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds) : 1;
  if (wait < 90) return t('wait.seconds', { count: wait });
  const minutes = Math.ceil(wait / 60);
  if (minutes < 90) return t('wait.minutes', { count: minutes });
  return t('wait.hours', { count: Math.ceil(minutes / 60) });
}
