// What an uploaded image may be (avatars, branding logos): the browser checks it before sending,
// the server enforces it (by the file's magic bytes, not its declared type). One fact, both sides.

/** At most 1 MB. */
export const IMAGE_MAX_BYTES = 1024 * 1024;

/** The image types accepted, by file extension. */
export const IMAGE_TYPES = { png: 'image/png', jpg: 'image/jpeg', webp: 'image/webp' } as const;

/** The MIME types accepted, for `<input type="file" accept>` and the browser's check. */
export const IMAGE_MIME_TYPES: readonly string[] = Object.values(IMAGE_TYPES);
