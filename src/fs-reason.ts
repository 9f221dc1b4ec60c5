// A fact about the machine, worded once: what a file system error means, in a few words. Shared by
// the client's file messages (src/io/files.ts) and the sandbox's (its --data file, its CA file).

/**
 * Short words for a file system error, as every file message in formctl reads ("Cannot read x: no
 * such file."). Node's own text is never shown: it repeats the path in another form, names the
 * syscall, and for downloads names the internal `.part` file.
 */
export function fsReason(err: unknown, mode: 'read' | 'write' = 'read'): string {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT':
      // Writing creates the file, so a missing piece can only be a directory on the way.
      return mode === 'write' ? 'no such directory' : 'no such file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'it is a directory';
    case 'ENOTDIR':
      return 'a part of the path is not a directory';
    case 'EEXIST':
      return 'it already exists';
    case 'ENOSPC':
      return 'no space left on the disk';
    case 'EDQUOT':
      return 'disk quota exceeded';
    case 'EROFS':
      return 'read-only file system';
    case 'ENAMETOOLONG':
      return 'the name is too long';
    default:
      return code ?? 'unexpected error';
  }
}
