// Uploaded images (avatars, branding logos): accepted by their magic bytes (not by the name or
// the declared type), capped in size, kept in the database under a random name (so every
// instance serves every file), served with nosniff. Each has an owner and a size: a replaced
// file is deleted, each uploader has a rate per minute and each owner a quota of bytes, so that
// no signed-in user can fill the disk.
import { canonicalIdentity } from '../../shared/identity.ts';
import { IMAGE_MAX_BYTES, IMAGE_TYPES } from '../../shared/uploads.ts';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { RateLimiter } from '../db/rate-limit.ts';
import { sql } from 'kysely';
import type { Db } from '../db/index.ts';
import { ApiError, TooManyAttemptsError } from '../http/errors.ts';
import type { Logger } from '../base/logger.ts';

export type AvatarExtension = keyof typeof IMAGE_TYPES;
export const AVATAR_FILE = /^[a-f0-9]{32}\.(png|jpg|webp)$/;
export const UPLOAD_FOLDERS = ['avatars', 'branding-logos'] as const;
export type UploadFolder = (typeof UPLOAD_FOLDERS)[number];

export function detectImageType(bytes: Buffer): AvatarExtension | null {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpg';
  if (bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  return null;
}

/** The URL of one of our uploads: /api/<folder>/<random>.<ext>. */
export function isUploadUrl(url: string): boolean {
  const match = /^\/api\/(avatars|branding-logos)\/([^/]+)$/.exec(url);
  return match !== null && AVATAR_FILE.test(match[2]!);
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
  /** The stored file of a URL, or null: its bytes are read a slice at a time by `chunks()`. */
  read(url: string): Promise<{ contentType: string; bytes: number; chunks: () => AsyncIterable<Buffer> } | null>;
};

export function imageUploads(deps: { db: Db; limiter: RateLimiter; limits: UploadLimits }): ImageUploads {
  const { db, limiter, limits } = deps;
  const { k } = db;
  return {
    async save(folder, image, who) {
      if (image.length === 0) throw new ApiError(422, 'invalid_image', 'The image is empty', { avatar: 'validation.imageEmpty' });
      if (image.length > IMAGE_MAX_BYTES) {
        throw new ApiError(413, 'image_too_large', `The image is larger than ${IMAGE_MAX_BYTES / 1024} KB`, {
          avatar: 'validation.imageTooLarge',
        });
      }
      const type = detectImageType(image);
      if (!type) {
        throw new ApiError(415, 'unsupported_image', 'The image must be a PNG, JPEG or WebP file', { avatar: 'validation.imageType' });
      }
      const rateKey = `upload:${canonicalIdentity(who.uploader)}`;
      const wait = await limiter.take(rateKey, limits.perMinute);
      if (wait > 0) throw new TooManyAttemptsError(wait, 'too_many_uploads', 'Too many uploads');
      const { total } = await k
        .selectFrom('uploads')
        .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('bytes'), eb.lit(0)).as('total'))
        .where('owner', '=', who.owner)
        .where('url', '<>', who.replacing ?? '')
        .executeTakeFirstOrThrow();
      const stored = Number(total);
      if (stored + image.length > limits.quotaBytes) {
        throw new ApiError(
          413,
          'upload_quota_exceeded',
          `The uploads of ${who.owner} would take ${stored + image.length} bytes, more than the ${limits.quotaBytes} allowed`,
        );
      }
      const url = `/api/${folder}/${randomBytes(16).toString('hex')}.${type}`;
      await k
        .insertInto('uploads')
        .values({
          url,
          owner: who.owner,
          bytes: image.length,
          content_type: IMAGE_TYPES[type],
          data: image,
          created_at: new Date().toISOString(),
        })
        .execute();
      return url;
    },
    async remove(url) {
      if (!url || !isUploadUrl(url)) return;
      await k.deleteFrom('uploads').where('url', '=', url).execute();
    },
    async read(url) {
      const row = await k
        .selectFrom('uploads')
        .select(['content_type', (eb) => eb.fn<number>('length', ['data']).as('length')])
        .where('url', '=', url)
        .where('data', 'is not', null)
        .executeTakeFirst();
      if (!row) return null;
      const bytes = Number(row.length);
      return { contentType: row.content_type, bytes, chunks: () => imageSlices(db, url, bytes) };
    },
  };
}

/** Bytes of an image read at a time: images are at most IMAGE_MAX_BYTES (1 MiB), so a few slices. */
const IMAGE_SLICE_BYTES = 256 * 1024;

/**
 * An image's bytes a slice at a time (substr counts bytes of a blob on both engines): a client
 * that reads slowly holds a slice of memory, not the image (docs/decisions/028).
 */
async function* imageSlices(db: Db, url: string, bytes: number): AsyncGenerator<Buffer> {
  for (let offset = 0; offset < bytes; offset += IMAGE_SLICE_BYTES) {
    const row = await db.k
      .selectFrom('uploads')
      .select(sql<Buffer>`substr(data, ${sql.lit(offset + 1)}, ${sql.lit(IMAGE_SLICE_BYTES)})`.as('slice'))
      .where('url', '=', url)
      .executeTakeFirst();
    // Replaced or deleted half-way: the download fails rather than end short.
    if (!row?.slice) throw new Error(`The image ${url} went away while it was being sent`);
    yield Buffer.isBuffer(row.slice) ? row.slice : Buffer.from(row.slice);
  }
}

/**
 * Installs from before files lived in the database kept them under DATA_DIR/<folder>: each one
 * still in use (a user's avatar, a branding logo) moves into the database; the folder's files
 * are deleted once their rows are committed. Run at start; nothing to do the second time.
 */
export async function moveUploadsIntoDatabase(db: Db, dataDir: string, logger: Logger): Promise<number> {
  const { k } = db;
  let moved = 0;
  for (const folder of UPLOAD_FOLDERS) {
    const dir = join(dataDir, folder);
    if (!existsSync(dir)) continue;
    for (const file of readdirSync(dir)) {
      if (!AVATAR_FILE.test(file)) continue;
      const url = `/api/${folder}/${file}`;
      const owner =
        folder === 'avatars'
          ? (await k.selectFrom('users').select('user_name as owner').where('avatar', '=', url).executeTakeFirst())?.owner
          : ((await k.selectFrom('branding').select('user_name as owner').where('logo', '=', url).executeTakeFirst())?.owner ??
            // A company's logo (migration 18 moved the clients' branding to their companies): kept in its manager's name.
            (
              await k
                .selectFrom('company_branding as b')
                .innerJoin('company_members as m', 'm.company_id', 'b.company_id')
                .select('m.user_name as owner')
                .where('b.logo', '=', url)
                .where('m.role', '=', 'manager')
                .executeTakeFirst()
            )?.owner);
      if (owner) {
        const data = readFileSync(join(dir, file));
        const contentType = IMAGE_TYPES[file.slice(file.lastIndexOf('.') + 1) as AvatarExtension];
        await k
          .insertInto('uploads')
          .values({ url, owner, bytes: data.length, content_type: contentType, data, created_at: new Date().toISOString() })
          .onConflict((oc) => oc.column('url').doUpdateSet({ data, content_type: contentType, bytes: data.length }))
          .execute();
        moved++;
      }
      // A file nobody uses any more (replaced before replaced files were deleted) just goes.
      rmSync(join(dir, file), { force: true });
    }
  }
  if (moved > 0) logger.info({ moved }, 'uploaded files moved from DATA_DIR into the database');
  return moved;
}
