// The watchdog thread of a stopping server (shutdown-deadline.ts): its own event loop, so it runs when the main
// thread cannot. If the process is still alive at its deadline, it writes the main thread's last account of itself and
// kills the process (SIGKILL: nothing of the main thread can run any more, an exit handler included).
import { workerData } from 'node:worker_threads';
import { describeAccount, writeFatalLine, type ShutdownAccount, type WatchdogShared } from './shutdown-deadline.js';

const { beat, account, startedAt, killAfterMs, signal } = workerData as WatchdogShared & {
  startedAt: number;
  killAfterMs: number;
  signal: string;
};

function lastAccount(): ShutdownAccount | null {
  const length = Atomics.load(beat, 1);
  if (length === 0) return null;
  try {
    // Copied out of shared memory first: TextDecoder refuses a view of a SharedArrayBuffer.
    return JSON.parse(new TextDecoder().decode(account.slice(0, length))) as ShutdownAccount;
  } catch {
    return null;
  }
}

setTimeout(
  () => {
    const silentMs = Date.now() - startedAt - Atomics.load(beat, 0);
    const last = lastAccount();
    writeFatalLine(
      { signal, mainThreadSilentMs: silentMs, ...(last ?? {}), killed: 'SIGKILL' },
      `the process did not exit ${Math.round(killAfterMs / 100) / 10} s after ${signal}; its main thread is blocked ` +
        `(it last ran ${Math.round(silentMs / 100) / 10} s ago${last ? `, at: ${describeAccount(last)}` : ''}). ` +
        `Killing it.`,
    );
    process.kill(process.pid, 'SIGKILL');
  },
  killAfterMs - (Date.now() - startedAt),
);
