// Uploaded images (avatars, branding logos): accepted by their magic bytes (not by the name or
// the declared type), capped in size, stored under DATA_DIR/<folder> with a random name (owner
// only: 0700 folders, 0600 files), served with nosniff. Each file is in the uploads ledger with
// its owner and size: a replaced file is deleted, each uploader has a rate per minute and each
// owner a quota of bytes, so that no signed-in user can fill the disk.
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RateLimiter } from '../auth/rate-limit.ts';
import type { Db } from '../db/index.ts';
import { ApiError, TooManyAttemptsError } from '../http/errors.ts';

export const AVATAR_MAX_BYTES = 1024 * 1024;
export const AVATAR_TYPES = { png: 'image/png', jpg: 'image/jpeg', webp: 'image/webp' } as const;
export type AvatarExtension = keyof typeof AVATAR_TYPES;
export const AVATAR_FILE = /^[a-f0-9]{32}\.(png|jpg|webp)$/;
export const UPLOAD_FOLDERS = ['avatars', 'branding-logos'] as const;
export type UploadFolder = (typeof UPLOAD_FOLDERS)[number];

export function detectImageType(bytes: Buffer): AvatarExtension | null {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpg';
  if (bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  return null;
}

/** The folder and file of one of our upload URLs (/api/<folder>/<file>), or null for anything else. */
function fileOf(url: string): { folder: UploadFolder; file: string } | null {
  const match = /^\/api\/(avatars|branding-logos)\/([^/]+)$/.exec(url);
  return match && AVATAR_FILE.test(match[2]!) ? { folder: match[1] as UploadFolder, file: match[2]! } : null;
}

export type UploadLimits = {
  /** Uploads one user may make per minute (any folder). */
  perMinute: number;
  /** Bytes one owner may have stored at once. */
  quotaBytes: number;
};

export type ImageUploads = {
  /**
   * Checks and stores an image: `owner` is whose it is (quota), `uploader` who sends it (rate),
   * `replacing` the upload it is meant to replace (not counted against the quota).
   */
  save(folder: UploadFolder, image: Buffer, who: { owner: string; uploader: string; replacing?: string | null }): Promise<string>;
  /** Deletes one of our uploads by its URL (anything else, or null, is left alone). */
  remove(url: string | null | undefined): Promise<void>;
};

export function imageUploads(deps: { db: Db; dataDir: string; limiter: RateLimiter; limits: UploadLimits }): ImageUploads {
  const { db, dataDir, limiter, limits } = deps;
  const storedBytes = db.prepare<[string, string], { total: number | null }>(
    'SELECT SUM(bytes) AS total FROM uploads WHERE owner = ? AND url <> ?',
  );
  const record = db.prepare<[string, string, number]>('INSERT INTO uploads (url, owner, bytes) VALUES (?, ?, ?)');
  const forget = db.prepare<[string]>('DELETE FROM uploads WHERE url = ?');

  async function folderPath(folder: UploadFolder): Promise<string> {
    const dir = join(dataDir, folder);
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await chmod(dir, 0o700);
    return dir;
  }

  return {
    async save(folder, image, who) {
      if (image.length === 0) throw new ApiError(422, 'invalid_image', 'The image is empty', { avatar: 'validation.imageEmpty' });
      if (image.length > AVATAR_MAX_BYTES) {
        throw new ApiError(413, 'image_too_large', `The image is larger than ${AVATAR_MAX_BYTES / 1024} KB`, {
          avatar: 'validation.imageTooLarge',
        });
      }
      const type = detectImageType(image);
      if (!type) {
        throw new ApiError(415, 'unsupported_image', 'The image must be a PNG, JPEG or WebP file', { avatar: 'validation.imageType' });
      }
      const rateKey = `upload:${who.uploader.toLowerCase()}`;
      const wait = limiter.retryAfter(rateKey, limits.perMinute);
      if (wait > 0) throw new TooManyAttemptsError(wait, 'too_many_uploads', 'Too many uploads');
      limiter.hit(rateKey);
      const stored = storedBytes.get(who.owner, who.replacing ?? '')?.total ?? 0;
      if (stored + image.length > limits.quotaBytes) {
        throw new ApiError(
          413,
          'upload_quota_exceeded',
          `The uploads of ${who.owner} would take ${stored + image.length} bytes, more than the ${limits.quotaBytes} allowed`,
        );
      }
      const file = `${randomBytes(16).toString('hex')}.${type}`;
      const url = `/api/${folder}/${file}`;
      await writeFile(join(await folderPath(folder), file), image, { flag: 'wx', mode: 0o600 });
      record.run(url, who.owner, image.length);
      return url;
    },
    async remove(url) {
      const found = url ? fileOf(url) : null;
      if (!found) return;
      forget.run(url!);
      await rm(join(dataDir, found.folder, found.file), { force: true });
    },
  };
}
