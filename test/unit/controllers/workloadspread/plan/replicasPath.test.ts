/**
 * The replicas at `targetFilter.replicasPathList` (lib/controllers/workloadspread/plan/replicasPath.ts), from
 * OpenKruise v1.9.0's `TestGetReplicasFromObject`, `TestGetReplicasFromWorkloadWithTargetFilter` and `TestNestedField`
 * (pkg/util/workloadspread): the same objects, sums and error texts.
 */
import { replicasAtPaths } from '../../../../../lib/controllers/workloadspread/plan/replicasPath.js';

const OBJECT = { spec: { replicas: 5, replicaSlice: [1, 2], stringField: '5' } };

describe('replicasAtPaths', () => {
  test.each([
    ['empty path', [''], { replicas: 0 }],
    ['not exist', ['spec.not.exist'], { error: 'path "not" not exists' }],
    ['a string field', ['spec.stringField'], { error: 'object type error' }],
    ['success', ['spec.replicas'], { replicas: 5 }],
    ['success in slice', ['spec.replicaSlice.1'], { replicas: 2 }],
    ['all (the filter)', ['spec.replicas', 'spec.replicaSlice.0', 'spec.replicaSlice.1'], { replicas: 8 }],
    ['empty filter', [], { replicas: 0 }],
    ['an error after a sum', ['spec.replicas', 'spec.not.exist'], { error: 'path "not" not exists' }],
  ])('%s', (_name, paths, want) => {
    expect(replicasAtPaths(OBJECT, paths)).toEqual(want);
  });

  test.each([
    ['not deep enough', { m: [1] }, 'm.0.n', 'object is not deep enough'],
    ['bad slice index', { m: [1] }, 'm.a', 'strconv.Atoi: parsing "a": invalid syntax'],
    ['slice out of range, positive index', { m: [1] }, 'm.10', 'index 10 out of range'],
    ['slice out of range, negative index', { m: [1] }, 'm.-1', 'index -1 out of range'],
    ['a map where the path ends', { m: { n: 1 } }, 'm', 'object type error'],
    ['a fraction (not an int64)', { m: 1.5 }, 'm', 'object type error'],
    ['null', { m: null }, 'm.n', 'object is not deep enough'],
  ])('%s', (_name, object, path, error) => {
    expect(replicasAtPaths(object, [path])).toEqual({ error });
  });

  test("each value and the sum are Go's int32 of the int64 found", () => {
    expect(replicasAtPaths({ a: 2 ** 32 + 3, b: 2 ** 31 - 1 }, ['a'])).toEqual({ replicas: 3 });
    expect(replicasAtPaths({ a: 1, b: 2 ** 31 - 1 }, ['a', 'b'])).toEqual({ replicas: -(2 ** 31) });
  });
});
