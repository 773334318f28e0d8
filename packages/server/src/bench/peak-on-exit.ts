// Preloaded (`node --import`) into a command the import bench runs: prints the process's own peak
// resident memory when it exits, for the bench to read (decision 073).
import fs from 'node:fs';

process.on('exit', () => {
  fs.writeSync(2, `\nbvdb-peak-rss-kb ${process.resourceUsage().maxRSS}\n`);
});
