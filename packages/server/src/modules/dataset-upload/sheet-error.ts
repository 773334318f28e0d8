/** A file that cannot be read as a sheet: a 400 with this message (or 413 when `tooLarge`). */
export class SheetError extends Error {
  constructor(
    message: string,
    readonly tooLarge = false,
  ) {
    super(message);
  }
}
