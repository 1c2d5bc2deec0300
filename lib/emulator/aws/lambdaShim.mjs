// The runtime of one emulated Lambda instance (lib/emulator/aws/lambda.ts forks it with the function's unpacked zip
// as working directory): imports the handler once (the init phase), then runs one invocation per IPC message,
// like Lambda's Node.js runtime resolving `Handler` = `<file>.<export>` to <file>.mjs|.js|.cjs.
// argv: <code dir> <handler>. Messages in: {type:'invoke', id, event, requestId, deadlineMs, functionName,
// functionArn, memoryMb}. Messages out: {type:'ready'} | {type:'initError', error} | {type:'result', id, ok,
// result | error}; `error` is Lambda's {errorType, errorMessage, trace}.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [codeDir, handlerSpec] = process.argv.slice(2);

function errorRecord(e) {
  const err = e instanceof Error ? e : new Error(String(e));
  return { errorType: err.name, errorMessage: err.message, trace: (err.stack ?? '').split('\n') };
}

async function loadHandler() {
  const dot = handlerSpec.lastIndexOf('.');
  const file = handlerSpec.slice(0, dot);
  const name = handlerSpec.slice(dot + 1);
  const found = ['.mjs', '.js', '.cjs']
    .map((ext) => path.join(codeDir, file + ext))
    .find((f) => existsSync(f));
  if (!found)
    throw Object.assign(new Error(`Cannot find module '${file}'`), { name: 'Runtime.ImportModuleError' });
  const mod = await import(pathToFileURL(found).href);
  const fn = mod[name];
  if (typeof fn !== 'function')
    throw Object.assign(new Error(`${file}.${name} is undefined or not exported`), {
      name: 'Runtime.HandlerNotFound',
    });
  return fn;
}

let handler;
try {
  handler = await loadHandler();
  process.send({ type: 'ready' });
} catch (e) {
  process.send({ type: 'initError', error: errorRecord(e) }, () => process.exit(1));
}

process.on('message', async (msg) => {
  if (msg.type !== 'invoke' || !handler) return;
  process.env._X_AMZN_TRACE_ID = `Root=1-${Math.floor(Date.now() / 1000).toString(16)}-${msg.requestId.replace(/-/g, '').slice(0, 24)}`;
  const context = {
    awsRequestId: msg.requestId,
    functionName: msg.functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: msg.functionArn,
    memoryLimitInMB: String(msg.memoryMb),
    logGroupName: `/aws/lambda/${msg.functionName}`,
    logStreamName: `emulated/${process.pid}`,
    callbackWaitsForEmptyEventLoop: true,
    getRemainingTimeInMillis: () => Math.max(0, msg.deadlineMs - Date.now()),
  };
  try {
    const result = await handler(msg.event, context);
    process.send({ type: 'result', id: msg.id, ok: true, result: result ?? null });
  } catch (e) {
    console.error(JSON.stringify({ level: 'ERROR', message: 'Invoke Error', ...errorRecord(e) }));
    process.send({ type: 'result', id: msg.id, ok: false, error: errorRecord(e) });
  }
});
