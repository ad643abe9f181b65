// One-dimensional arrays in PostgreSQL's binary format (the `array_send` layout), for query
// parameters: node-postgres sends a Buffer parameter as binary, so the database reads each element by
// its length instead of parsing an array literal, and nothing here escapes quotes or backslashes
// (a roll's JSON holds over a hundred quotes).
//
// Layout: dimensions (1, or 0 when empty), a has-nulls flag, the element type's OID, then for the one
// dimension its length and lower bound (1), then each element as its byte length (-1 for NULL) and
// its bytes.

const TEXT_OID = 25;
const INT4_OID = 23;

function header(buffer: Buffer, count: number, hasNulls: boolean, oid: number): number {
  buffer.writeInt32BE(count === 0 ? 0 : 1, 0);
  buffer.writeInt32BE(hasNulls ? 1 : 0, 4);
  buffer.writeUInt32BE(oid, 8);
  if (count === 0) return 12;
  buffer.writeInt32BE(count, 12);
  buffer.writeInt32BE(1, 16);
  return 20;
}

/** A `text[]` parameter. */
export function textArray(values: ReadonlyArray<string | null>): Buffer {
  let size = values.length === 0 ? 12 : 20;
  let hasNulls = false;
  const lengths = new Array<number>(values.length);
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (value === null || value === undefined) {
      hasNulls = true;
      lengths[i] = -1;
      size += 4;
    } else {
      const length = Buffer.byteLength(value, 'utf8');
      lengths[i] = length;
      size += 4 + length;
    }
  }
  const buffer = Buffer.allocUnsafe(size);
  let at = header(buffer, values.length, hasNulls, TEXT_OID);
  for (let i = 0; i < values.length; i++) {
    const length = lengths[i]!;
    buffer.writeInt32BE(length, at);
    at += 4;
    if (length > 0) at += buffer.write(values[i]!, at, length, 'utf8');
  }
  return buffer;
}

/** An `integer[]` parameter (every value a 32-bit integer, or null). */
export function intArray(values: ReadonlyArray<number | null>): Buffer {
  let nulls = 0;
  for (const value of values) if (value === null || value === undefined) nulls++;
  const buffer = Buffer.allocUnsafe((values.length === 0 ? 12 : 20) + values.length * 8 - nulls * 4);
  let at = header(buffer, values.length, nulls > 0, INT4_OID);
  for (const value of values) {
    if (value === null || value === undefined) {
      buffer.writeInt32BE(-1, at);
      at += 4;
    } else {
      // Checked here: Buffer.writeInt32BE would write NaN as 0 and 1.5 as 1.
      if (!Number.isInteger(value)) throw new RangeError(`not an integer: ${value}`);
      buffer.writeInt32BE(4, at);
      buffer.writeInt32BE(value, at + 4);
      at += 8;
    }
  }
  return buffer;
}
