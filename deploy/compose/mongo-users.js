// docker-compose.yml: run by the mongo image once, when its volume is empty
// (/docker-entrypoint-initdb.d), as the root user. Each backend service gets its own database
// and a user that may read and write only that database, so one service's credentials cannot
// reach another's collections. Passwords come from the container's environment.
// mongosh provides `db` (and `process.env`) to init scripts.
/* global db */
// A volume made before a service was added lacks its user: create it by hand with the same
// createUser call, or start over with `docker compose down --volumes` (which drops the data).

// The services are those whose password docker-compose.yml passes, `MONGO_<NAME>_PASSWORD` (the
// service's name in capitals, `_` for `-`), so that the compose file is the one list of them.
const PASSWORD_VARIABLE = /^MONGO_(?!INITDB_)([A-Z0-9_]+)_PASSWORD$/;

for (const [variable, password] of Object.entries(process.env)) {
  const name = PASSWORD_VARIABLE.exec(variable)?.[1]?.toLowerCase();
  if (name === undefined) continue;
  if (!password) throw new Error(`${variable} is empty`);
  const database = `handoff_${name}`;
  db.getSiblingDB(database).createUser({
    user: name.replace(/_/g, '-'),
    pwd: password,
    roles: [{ role: 'readWrite', db: database }],
  });
}
