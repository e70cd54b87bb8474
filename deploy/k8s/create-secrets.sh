#!/usr/bin/env bash
# Prints the Secrets the manifests reference, with fresh random passwords, for kubectl to create:
#   kubectl create namespace feedback-intelligence
#   deploy/k8s/create-secrets.sh | kubectl create -f -
# Nothing is written to disk and no secret is in the repository. `create` (not `apply`) refuses to
# overwrite: the MongoDB root user is made once, from the first password it sees.
# NAMESPACE (feedback-intelligence) and MONGO_MEMBERS (3, the StatefulSet's replicas) can be set.
set -euo pipefail
namespace="${NAMESPACE:-feedback-intelligence}"
members="${MONGO_MEMBERS:-3}"

# 256 random bits as hex: nothing in it needs escaping in a URL or in YAML.
password() { head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n'; }

hosts=""
for i in $(seq 0 $((members - 1))); do hosts="${hosts}mongo-$i.mongo:27017,"; done
hosts="${hosts%,}"

secret() { # name, then key=value pairs
  local name="$1"
  shift
  printf -- '---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: %s\n  namespace: %s\ntype: Opaque\nstringData:\n' "$name" "$namespace"
  for pair in "$@"; do printf "  %s: '%s'\n" "${pair%%=*}" "${pair#*=}"; done
}

# The replica set members' shared key: base64 text, 6 to 1024 characters.
secret fi-mongodb-admin username=root "password=$(password)" "keyfile=$(head -c 756 /dev/urandom | base64 | tr -d '\n')"
for service in feedback contacts accounts identity integrations; do
  pw="$(password)"
  secret "fi-mongodb-$service" "password=$pw" "uri=mongodb://$service:$pw@$hosts/?replicaSet=rs0&authSource=admin"
done
pw="$(password)"
secret fi-redis "password=$pw" "url=redis://:$pw@redis:6379"
# Encrypts webhook signing secrets (32 bytes as hex). Keep it: a new key makes stored secrets unreadable.
secret fi-webhooks "secret-key=$(password)"
# Encrypts connected platforms' secrets and tokens (32 bytes as hex). Keep it, as the webhooks' key.
secret fi-integrations "secret-key=$(password)"
# Signs the identity the gateway sends the subgraphs: KEY_ID:SECRET, the key id dated so a rotation
# (docs/identity.md) can list the next key beside it.
secret fi-identity-signing "keys=k$(date +%Y%m%d):$(password)"
