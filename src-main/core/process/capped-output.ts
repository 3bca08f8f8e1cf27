/**
 * One output stream of a tool, kept within a fixed byte budget however much the tool prints:
 * the first half of the cap (head), a ring of the last half (tail), and a count of everything.
 * Bytes are decoded once at the end, so a cut may split a character (it shows as U+FFFD).
 */

/** Where the output was cut, with how many bytes went missing there. */
export function droppedMarker(bytes: number): string {
  return `\n… [${bytes} bytes dropped] …\n`;
}

/** The head grows on demand up to its half of the cap, so a quiet tool costs a few KiB, not the whole cap. */
const INITIAL_HEAD_BYTES = 4096;

/** A bounded capture of one stream: memory stays at most `capBytes` plus one growth step of the head. */
export class CappedOutput {
  private readonly headCap: number;
  private readonly tailCap: number;
  private head: Buffer = Buffer.alloc(0);
  private headLength = 0;
  /** Allocated at the first byte past the head: only a tool that overflows the head pays for the ring. */
  private tail: Buffer | null = null;
  private tailStart = 0;
  private tailLength = 0;
  private total = 0;
  private readonly live = new TextDecoder('utf-8');

  constructor(capBytes: number) {
    this.headCap = Math.floor(capBytes / 2);
    this.tailCap = capBytes - this.headCap;
  }

  /** Every byte seen so far, kept or not. */
  get totalBytes(): number {
    return this.total;
  }

  /** Bytes seen but kept in neither head nor tail. */
  get droppedBytes(): number {
    return this.total - this.headLength - this.tailLength;
  }

  /** Takes one chunk; returns the text it added to the head, and '' once the head is full (live output stops there). */
  push(chunk: Uint8Array): string {
    this.total += chunk.length;
    const toHead = Math.min(chunk.length, this.headCap - this.headLength);
    if (toHead > 0) this.appendHead(chunk.subarray(0, toHead));
    if (toHead < chunk.length) this.appendTail(chunk.subarray(toHead));
    return toHead > 0 ? this.live.decode(chunk.subarray(0, toHead), { stream: true }) : '';
  }

  /** What the live decoder still holds at the end of the stream, when the head never overflowed. */
  finishLive(): string {
    return this.total === this.headLength ? this.live.decode() : '';
  }

  /** The captured text: head + marker + tail when bytes were dropped, the whole output otherwise. */
  text(): string {
    const head = this.head.subarray(0, this.headLength);
    const tail = this.tailBytes();
    const decoder = new TextDecoder('utf-8');
    const dropped = this.droppedBytes;
    if (dropped === 0) return decoder.decode(Buffer.concat([head, tail]));
    return decoder.decode(head) + droppedMarker(dropped) + decoder.decode(tail);
  }

  private appendHead(bytes: Uint8Array): void {
    const needed = this.headLength + bytes.length;
    if (needed > this.head.length) {
      const grown = Buffer.alloc(Math.min(this.headCap, Math.max(needed, this.head.length * 2, INITIAL_HEAD_BYTES)));
      this.head.copy(grown, 0, 0, this.headLength);
      this.head = grown;
    }
    this.head.set(bytes, this.headLength);
    this.headLength = needed;
  }

  private appendTail(bytes: Uint8Array): void {
    if (this.tailCap === 0) return;
    const ring = (this.tail ??= Buffer.alloc(this.tailCap));
    if (bytes.length >= this.tailCap) {
      ring.set(bytes.subarray(bytes.length - this.tailCap));
      this.tailStart = 0;
      this.tailLength = this.tailCap;
      return;
    }
    const write = (this.tailStart + this.tailLength) % this.tailCap;
    const beforeWrap = Math.min(bytes.length, this.tailCap - write);
    ring.set(bytes.subarray(0, beforeWrap), write);
    ring.set(bytes.subarray(beforeWrap), 0);
    const overwritten = this.tailLength + bytes.length - this.tailCap;
    if (overwritten > 0) {
      this.tailStart = (this.tailStart + overwritten) % this.tailCap;
      this.tailLength = this.tailCap;
    } else {
      this.tailLength += bytes.length;
    }
  }

  private tailBytes(): Buffer {
    if (this.tail === null || this.tailLength === 0) return Buffer.alloc(0);
    const end = this.tailStart + this.tailLength;
    if (end <= this.tailCap) return this.tail.subarray(this.tailStart, end);
    return Buffer.concat([this.tail.subarray(this.tailStart), this.tail.subarray(0, end - this.tailCap)]);
  }
}
