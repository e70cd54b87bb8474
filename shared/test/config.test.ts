import { ConfigError, loadConfig, parse, serviceConfigSchema } from '../src/config';

const schema = serviceConfigSchema({ port: 4001, database: 'feedback' });
const signing = { IDENTITY_SIGNING_KEYS: `k1:${'a'.repeat(32)}` };

describe('a service configuration', () => {
  test('when nothing optional is set, then defaults apply and the required variables are asked for', () => {
    expect(loadConfig(schema, { MONGODB_URI: 'mongodb://db:27017', ...signing })).toMatchObject({
      port: 4001,
      mongodbDb: 'feedback',
      mongodbWriteConcern: 'majority',
    });
    expect(() => loadConfig(schema, {})).toThrow(/MONGODB_URI is required/);
    expect(() => loadConfig(schema, {})).toThrow(/IDENTITY_SIGNING_KEYS is required/);
  });

  test('when several variables are wrong, then every problem is reported at once', () => {
    let error: unknown;
    try {
      loadConfig(schema, {
        MONGODB_URI: 'http://db',
        PORT: 'eighty',
        LOG_LEVEL: 'loud',
        MONGODB_WRITE_CONCERN: 'all',
        ...signing,
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      expect.stringMatching(/^PORT="eighty" is invalid: expected a whole number/),
      expect.stringMatching(
        /^MONGODB_URI="http:\/\/db" is invalid: expected a mongodb:\/\/ or mongodb\+srv:\/\/ connection string/,
      ),
      expect.stringMatching(/^MONGODB_WRITE_CONCERN="all" is invalid: expected a whole number/),
      expect.stringMatching(/^LOG_LEVEL="loud" is invalid: expected one of fatal, error/),
    ]);
  });

  test('when the write concern would not wait for any acknowledgement, then it is refused', () => {
    expect(() =>
      loadConfig(schema, { MONGODB_URI: 'mongodb://db:27017', MONGODB_WRITE_CONCERN: '0', ...signing }),
    ).toThrow(/MONGODB_WRITE_CONCERN="0" is invalid: expected a number from 1 to 50/);
    expect(
      loadConfig(schema, { MONGODB_URI: 'mongodb://db:27017', MONGODB_WRITE_CONCERN: '2', ...signing })
        .mongodbWriteConcern,
    ).toBe(2);
  });

  test('when MongoDB is a replica set, then its seed list of several hosts is accepted, and a URI without hosts is refused', () => {
    const seedList =
      'mongodb://app:secret@mongo-0.mongo:27017,mongo-1.mongo:27017,mongo-2.mongo:27017/?replicaSet=rs0&authSource=admin';
    expect(loadConfig(schema, { MONGODB_URI: seedList, ...signing }).mongodbUri).toBe(seedList);
    expect(parse.mongoUri('mongodb+srv://cluster0.example.net/')).toBe('mongodb+srv://cluster0.example.net/');
    expect(() => parse.mongoUri('mongodb://')).toThrow(
      /expected a mongodb:\/\/ or mongodb\+srv:\/\/ connection string \(.*host/,
    );
  });

  test('when numbers are out of range or not whole, then they are refused', () => {
    expect(() => parse.int(1, 10)('11')).toThrow('expected a number from 1 to 10');
    expect(() => parse.int(1, 10)('2.5')).toThrow('expected a whole number');
    expect(parse.int(1, 10)(' 7 ')).toBe(7);
  });
});
