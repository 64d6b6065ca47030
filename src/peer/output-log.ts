/**
 * A peer's whole output, in a file of the report directory (server-output.log, client-output.log):
 * written to NAME.part as it comes, renamed to NAME once the peer is stopped (a reader never sees
 * half a log as whole). A process's chunks go in as they come; a per-case client's lines are each
 * marked with their case, so cases played at once (--jobs) stay apart in one file. The file is made
 * on the first write: a peer that printed nothing leaves none.
 */
import { createWriteStream, mkdirSync, renameSync, type WriteStream } from 'node:fs';
import path from 'node:path';

export class OutputLog {
  private stream: WriteStream | null = null;
  private closed = false;
  /** The file's name in the report directory. */
  readonly name: string;

  constructor(private readonly file: string) {
    this.name = path.basename(file);
  }

  write(chunk: string | Buffer): void {
    if (this.closed || chunk.length === 0) return;
    if (this.stream === null) {
      try {
        mkdirSync(path.dirname(this.file), { recursive: true });
      } catch {
        // The stream's error below says it; a log never stops a run.
      }
      this.stream = createWriteStream(`${this.file}.part`);
      // A full disk costs the log, not the run.
      this.stream.on('error', () => undefined);
    }
    if (!this.stream.closed && !this.stream.writableEnded) this.stream.write(chunk);
  }

  /**
   * A sink for one process whose every line goes in after `mark` ("[2.5] "), a line cut between
   * two chunks included; `end()` writes what is left of its last line.
   */
  marked(mark: string): { write: (chunk: Buffer) => void; end: () => void } {
    let partial = '';
    return {
      write: (chunk) => {
        const lines = (partial + chunk.toString('utf8')).split('\n');
        partial = lines.pop() ?? '';
        if (lines.length > 0) this.write(lines.map((line) => `${mark}${line}\n`).join(''));
      },
      end: () => {
        if (partial !== '') this.write(`${mark}${partial}\n`);
        partial = '';
      },
    };
  }

  /** Ends the file and gives it its name (once; later calls do nothing). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const stream = this.stream;
    if (stream === null) return;
    await new Promise<void>((resolve) => stream.end(resolve));
    try {
      renameSync(`${this.file}.part`, this.file);
    } catch {
      // The report directory went away: nothing to keep it in.
    }
  }
}
