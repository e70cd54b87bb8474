#!/bin/bash
# Run by the mongo-init Job: initiates the replica set once, then creates (or updates the password of)
# one MongoDB user per service, each allowed only its own database. Safe to re-run.
set -euo pipefail

hosts=""
members=""
for i in $(seq 0 $((MONGO_MEMBERS - 1))); do
  hosts="${hosts}mongo-$i.mongo:27017,"
  members="${members}{_id: $i, host: 'mongo-$i.mongo:27017'},"
done
hosts="${hosts%,}"
auth=(--quiet --username "$ROOT_USERNAME" --password "$ROOT_PASSWORD" --authenticationDatabase admin)

echo "initiating the replica set rs0 with $MONGO_MEMBERS members (if not yet initiated)"
until mongosh "mongodb://mongo-0.mongo:27017/admin?directConnection=true" "${auth[@]}" --eval "
  try { rs.status(); print('already initiated') }
  catch (e) { if (e.codeName !== 'NotYetInitialized') throw e; rs.initiate({ _id: 'rs0', members: [$members] }) }
"; do
  echo "mongo-0 is not ready yet; retrying"
  sleep 3
done

echo "creating or updating the service users"
until mongosh "mongodb://$hosts/admin?replicaSet=rs0" "${auth[@]}" --eval "
  const databases = {
    identity: ['identity'],
    feedback: ['feedback'],
    contacts: ['contacts'],
    accounts: ['accounts'],
    integrations: ['integrations'],
  };
  const admin = db.getSiblingDB('admin');
  for (const [user, names] of Object.entries(databases)) {
    const pwd = process.env[user.toUpperCase() + '_PASSWORD'];
    if (!pwd) throw new Error('no password for ' + user);
    const roles = names.map((name) => ({ role: 'readWrite', db: name }));
    if (admin.getUser(user)) admin.updateUser(user, { pwd, roles });
    else admin.createUser({ user, pwd, roles });
    print('user ' + user + ': ' + names.join(', '));
  }
"; do
  echo "no primary yet; retrying"
  sleep 3
done
