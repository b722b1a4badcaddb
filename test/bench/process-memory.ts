// The resident memory of the processes a launcher started (the server's node below npm), read from /proc.
import { readdir, readFile } from "node:fs/promises";

/** The resident memory of a process tree below `pid`, without the launcher itself (npm), in MB. */
export async function treeRssMb(pid: number): Promise<number> {
  const parents = new Map<number, number>();
  const rss = new Map<number, number>();
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, "utf8").catch(() => "");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (fields.length < 22) continue;
    parents.set(Number(entry), Number(fields[1]));
    rss.set(Number(entry), (Number(fields[21]) * 4096) / (1 << 20));
  }
  const below = (p: number): number[] => [...parents].filter(([, parent]) => parent === p).flatMap(([child]) => [child, ...below(child)]);
  return below(pid).reduce((sum, p) => sum + (rss.get(p) ?? 0), 0);
}
