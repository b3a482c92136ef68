import type { ResponsiveImage } from '../../shared/page-data.ts';

/**
 * An image with its real width and height (the browser keeps its room: nothing shifts) and,
 * when there are renditions, a srcset with the `sizes` of where it is shown.
 */
export function ResponsiveImg({
  image,
  sizes,
  className,
  lazy,
}: {
  image: ResponsiveImage;
  sizes: string;
  className?: string;
  lazy?: boolean;
}) {
  return (
    <img
      className={className}
      src={image.src}
      srcSet={image.srcset}
      sizes={image.srcset ? sizes : undefined}
      width={image.width}
      height={image.height}
      alt={image.alt}
      loading={lazy ? 'lazy' : undefined}
      decoding="async"
    />
  );
}
