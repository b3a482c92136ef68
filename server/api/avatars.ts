// Avatar images: accepted by their magic bytes (not by the name or the declared type), capped
// in size, stored under DATA_DIR/avatars with a random name, served with nosniff.
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ApiError } from '../http/errors.ts';

export const AVATAR_MAX_BYTES = 1024 * 1024;
export const AVATAR_TYPES = { png: 'image/png', jpg: 'image/jpeg', webp: 'image/webp' } as const;
export type AvatarExtension = keyof typeof AVATAR_TYPES;
export const AVATAR_FILE = /^[a-f0-9]{32}\.(png|jpg|webp)$/;

export function detectImageType(bytes: Buffer): AvatarExtension | null {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpg';
  if (bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  return null;
}

/** Uploaded images (avatars, branding logos) under DATA_DIR/<folder>, served at /api/<folder>/. */
export function avatarStore(dataDir: string, folder: 'avatars' | 'branding-logos' = 'avatars') {
  const dir = join(dataDir, folder);
  return {
    dir,
    async save(image: Buffer): Promise<string> {
      if (image.length === 0) throw new ApiError(422, 'invalid_image', 'The image is empty', { avatar: 'validation.imageEmpty' });
      if (image.length > AVATAR_MAX_BYTES) {
        throw new ApiError(413, 'image_too_large', `The image is larger than ${AVATAR_MAX_BYTES / 1024} KB`, {
          avatar: 'validation.imageTooLarge',
        });
      }
      const type = detectImageType(image);
      if (!type)
        throw new ApiError(415, 'unsupported_image', 'The image must be a PNG, JPEG or WebP file', { avatar: 'validation.imageType' });
      await mkdir(dir, { recursive: true });
      const file = `${randomBytes(16).toString('hex')}.${type}`;
      await writeFile(join(dir, file), image, { flag: 'wx' });
      return `/api/${folder}/${file}`;
    },
  };
}
