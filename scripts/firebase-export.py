#!/usr/bin/env python3
"""Writes a synthetic `firebase auth:export` file (JSON or CSV) for import benchmarks and tests.

    python3 scripts/firebase-export.py --count 1000000 /tmp/users.json
    python3 scripts/firebase-export.py --count 1000 --format csv /tmp/users.csv

Users look like a Firebase project's with Firebase scrypt passwords: a 28-character localId, an email (every user),
a 64-byte passwordHash and a 12-byte salt (random bytes: imports store hashes, they do not check them), a display
name, createdAt and lastSignedInAt; every 5th user has a phone number, every 10th custom claims, every 100th a
verified email and a phone second factor. The output is deterministic for a given --seed. Import with the hash
flags printed on standard error.
"""
import argparse
import base64
import json
import random
import string
import sys

SIGNER_KEY = base64.b64encode(bytes(range(64))).decode()
ALPHABET = string.ascii_letters + string.digits


def users(count, seed):
    rng = random.Random(seed)
    created = 1_600_000_000_000
    for i in range(count):
        user = {
            "localId": "".join(rng.choices(ALPHABET, k=28)),
            "email": f"user{i}@example.com",
            "emailVerified": i % 100 == 0 or i % 2 == 0,
            "passwordHash": base64.b64encode(rng.randbytes(64)).decode(),
            "salt": base64.b64encode(rng.randbytes(12)).decode(),
            "displayName": f"User {i}",
            "lastSignedInAt": str(created + i * 1000 + 500),
            "createdAt": str(created + i * 1000),
            "disabled": False,
            "providerUserInfo": [],
        }
        if i % 5 == 0:
            user["phoneNumber"] = f"+1415{2_000_000 + i // 5}"
        if i % 10 == 0:
            user["customAttributes"] = json.dumps({"plan": "pro", "n": i}, separators=(",", ":"))
        if i % 100 == 0:
            user["emailVerified"] = True
            user["mfaInfo"] = [
                {
                    "mfaEnrollmentId": "".join(rng.choices(ALPHABET, k=28)),
                    "displayName": "phone",
                    "phoneInfo": f"+1628{2_000_000 + i // 100}",
                    "enrolledAt": "2023-01-02T03:04:05.678Z",
                }
            ]
        yield user


def csv_field(text):
    if any(c in text for c in ',"\r\n'):
        return '"' + text.replace('"', '""') + '"'
    return text


def write_json(out, count, seed):
    out.write('{"users": [\n')
    for i, user in enumerate(users(count, seed)):
        if i:
            out.write(",\n")
        out.write(json.dumps(user, indent=2))
    out.write("]}")


def write_csv(out, count, seed):
    for user in users(count, seed):
        row = [""] * 52
        row[0] = user["localId"]
        row[1] = user["email"]
        row[2] = "true" if user["emailVerified"] else "false"
        row[3] = user["passwordHash"]
        row[4] = user["salt"]
        row[5] = csv_field(user["displayName"])
        row[23] = user["createdAt"]
        row[24] = user["lastSignedInAt"]
        row[25] = user.get("phoneNumber", "")
        row[26] = "false"
        claims = user.get("customAttributes")
        row[27] = '"' + claims.replace('"', '""') + '"' if claims else ""
        out.write(",".join(row) + ",\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument("--format", choices=["json", "csv"])
    parser.add_argument("--seed", type=int, default=14)
    parser.add_argument("out")
    args = parser.parse_args()
    fmt = args.format or ("csv" if args.out.endswith(".csv") else "json")
    with open(args.out, "w", buffering=1 << 20) as out:
        (write_json if fmt == "json" else write_csv)(out, args.count, args.seed)
    print(
        f"--hash-algo SCRYPT --hash-key {SIGNER_KEY} --salt-separator Bw== --rounds 8 --mem-cost 14",
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
