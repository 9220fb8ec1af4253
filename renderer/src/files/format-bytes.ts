const sizeFormat = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });

/** Bytes as a person reads them: "812 B", "4.2 MB". */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 ? value : sizeFormat.format(value)} ${units[unit]}`;
}
