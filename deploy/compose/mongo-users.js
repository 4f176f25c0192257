// docker-compose.yml: run by the mongo image once, when its volume is empty
// (/docker-entrypoint-initdb.d), as the root user. Each backend service gets its own database
// and a user that may read and write only that database, so one service's credentials cannot
// reach another's collections. Passwords come from the container's environment.
// mongosh provides `db` (and `process.env`) to init scripts.
/* global db */
// A volume made before a service was added lacks its user: create it by hand with the same
// createUser call, or start over with `docker compose down --volumes` (which drops the data).
const services = [
  'intake',
  'conversation',
  'payments',
  'milestones',
  'webhook-dispatcher',
  'notifications',
];
for (const service of services) {
  const name = service.replace(/-/g, '_');
  const password = process.env[`MONGO_${name.toUpperCase()}_PASSWORD`];
  if (!password) throw new Error(`MONGO_${name.toUpperCase()}_PASSWORD is not set`);
  const database = `handoff_${name}`;
  db.getSiblingDB(database).createUser({
    user: service,
    pwd: password,
    roles: [{ role: 'readWrite', db: database }],
  });
}
