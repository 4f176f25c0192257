export * from './fixtures.ts';
export * from './servers.ts';
export * from './stripe-mock.ts';
export * from './natsconf.ts';
export * from './receiver.ts';
export * from './tls.ts';
export { databasePasswords, serviceDatabase, type DatabasePasswords } from './postgres.ts';
export * from './events.ts';
export * from './mailpit.ts';
