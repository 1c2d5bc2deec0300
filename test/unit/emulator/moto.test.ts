import { afterEach, describe, expect, test } from '@jest/globals';
import { findMotoPython, startMoto } from '../../../lib/emulator/moto.js';

// A new user who set KRUISELESS_MOTO_PYTHON to a wrong path was told only "moto not found: run npm run
// moto:install", which does not help while the variable overrides the installed virtualenv.
describe('moto lookup', () => {
  const saved = process.env.KRUISELESS_MOTO_PYTHON;
  afterEach(() => {
    if (saved === undefined) delete process.env.KRUISELESS_MOTO_PYTHON;
    else process.env.KRUISELESS_MOTO_PYTHON = saved;
  });

  test('a KRUISELESS_MOTO_PYTHON that does not exist is named in the error', async () => {
    process.env.KRUISELESS_MOTO_PYTHON = '/nonexistent/kruiseless/python';
    expect(findMotoPython()).toBeUndefined();
    await expect(startMoto()).rejects.toThrow(
      new Error(
        "moto not found: KRUISELESS_MOTO_PYTHON=/nonexistent/kruiseless/python does not exist (unset it to use `npm run moto:install`'s virtualenv)",
      ),
    );
  });
});
