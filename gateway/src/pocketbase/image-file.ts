import { imageSize } from "image-size";
import { LIMITS } from "@flock/shared/limits";
import { payloadTooLarge, unsupportedFileType } from "../errors.ts";

const IMAGE_TYPES_SHOWN = ["JPEG", "PNG", "WebP", "GIF"];

/**
 * An uploaded image (a cover, artwork, a photo) as PocketBase takes it: an allowed type, within the
 * size limit, and really an image (its bytes measured), copied into a native File.
 */
export async function checkedImageFile(file: File, fallbackName: string): Promise<File> {
  if (!(LIMITS.imageMimeTypes as readonly string[]).includes(file.type))
    throw unsupportedFileType(IMAGE_TYPES_SHOWN);
  if (file.size > LIMITS.imageMaxBytes) throw payloadTooLarge(LIMITS.imageMaxBytes);
  const bytes = new Uint8Array(await file.arrayBuffer());
  try {
    const size = imageSize(bytes);
    if (!size.width || !size.height) throw new Error("no size");
  } catch {
    throw unsupportedFileType(IMAGE_TYPES_SHOWN);
  }
  // Yoga's File is not a Blob on Node 20 and the SDK would silently drop it: copy into a native File.
  return new File([bytes], (file.name || fallbackName).slice(-200), { type: file.type });
}
