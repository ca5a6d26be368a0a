#!/usr/bin/env python3
"""Test vectors for Flint's imported password hashes (Sources/FlintCore/Passwords/Imported), computed with
Python's hashlib/hmac/hashlib.scrypt, the `cryptography` package (AES-CTR) and the `bcrypt` package, independently
of the Swift code under test.

    pip install bcrypt cryptography
    python3 scripts/hash-vectors.py > /tmp/vectors.txt

Each line is a Swift tuple literal for Tests/FlintTesting/ImportedHashVectors.swift:
(name, wire options as JSON, password, salt in standard base64, hash in standard base64), the way an
`accounts:batchCreate` request carries them. The conventions encoded here are the ones Flint implements:

- MD5: x = md5(salt + password) (password + salt for PASSWORD_AND_SALT), then `rounds` more times
  x = md5(x + password); the stored hash is the lower-case hex text of x.
- SHA1/SHA256/SHA512: x = H(salt + password) (or password + salt), then x = H(x) until H has run `rounds` times.
- HMAC_*: HMAC(signerKey, password + salt) by default, salt + password for SALT_AND_PASSWORD.
- PBKDF_SHA1 / PBKDF2_SHA256: PBKDF2-HMAC with `rounds` iterations, as long as the stored hash.
- SCRYPT (Firebase): AES-256-CTR(key = scrypt(password, salt + saltSeparator, 2^memoryCost, rounds, 1, 64)[:32],
  iv = 0) over the signer key.
- STANDARD_SCRYPT: scrypt(password, salt, cpuMemCost, blockSize, parallelization, dkLen).
- BCRYPT: the modular-crypt string is the hash; the salt field is unused.
"""
import base64
import hashlib
import hmac
import json

import bcrypt
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

PASSWORD = "correct horse battery staple"
SALT = b"NaCl-\x00\xff-salt"
KEY = b"flint-test-signer-key\x00\x01\x02"
UNICODE = "pässwörd-密码"

lines = []


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode()


def add(name, wire, password, salt, hash_bytes):
    text = json.dumps(wire, separators=(",", ":"), sort_keys=True)
    lines.append(f'("{name}", #"{text}"#, "{password}", "{b64(salt)}", "{b64(hash_bytes)}"),')


def ordered(order, salt, password):
    return password + salt if order == "PASSWORD_AND_SALT" else salt + password


def md5_hash(password, salt, rounds, order=None):
    pw = password.encode()
    x = hashlib.md5(ordered(order, salt, pw)).digest()
    for _ in range(rounds):
        x = hashlib.md5(x + pw).digest()
    return x.hex().encode()


def sha_hash(name, password, salt, rounds, order=None):
    x = hashlib.new(name, ordered(order, salt, password.encode())).digest()
    for _ in range(rounds - 1):
        x = hashlib.new(name, x).digest()
    return x


for rounds in (0, 1, 2, 5):
    add(f"MD5 r{rounds}", {"hashAlgorithm": "MD5", "rounds": rounds}, PASSWORD, SALT, md5_hash(PASSWORD, SALT, rounds))
add("MD5 r1 PASSWORD_AND_SALT", {"hashAlgorithm": "MD5", "rounds": 1, "passwordHashOrder": "PASSWORD_AND_SALT"},
    PASSWORD, SALT, md5_hash(PASSWORD, SALT, 1, "PASSWORD_AND_SALT"))
add("MD5 r0 no salt", {"hashAlgorithm": "MD5"}, UNICODE, b"", md5_hash(UNICODE, b"", 0))

for name, algo in (("sha1", "SHA1"), ("sha256", "SHA256"), ("sha512", "SHA512")):
    for rounds in (1, 2, 100):
        add(f"{algo} r{rounds}", {"hashAlgorithm": algo, "rounds": rounds}, PASSWORD, SALT,
            sha_hash(name, PASSWORD, SALT, rounds))
    add(f"{algo} r3 PASSWORD_AND_SALT", {"hashAlgorithm": algo, "rounds": 3, "passwordHashOrder": "PASSWORD_AND_SALT"},
        PASSWORD, SALT, sha_hash(name, PASSWORD, SALT, 3, "PASSWORD_AND_SALT"))
    add(f"{algo} r1 SALT_AND_PASSWORD unicode", {"hashAlgorithm": algo, "rounds": "1", "passwordHashOrder": "SALT_AND_PASSWORD"},
        UNICODE, SALT, sha_hash(name, UNICODE, SALT, 1, "SALT_AND_PASSWORD"))

for name, algo in (("md5", "HMAC_MD5"), ("sha1", "HMAC_SHA1"), ("sha256", "HMAC_SHA256"), ("sha512", "HMAC_SHA512")):
    key = b64(KEY)
    add(f"{algo}", {"hashAlgorithm": algo, "signerKey": key}, PASSWORD, SALT,
        hmac.new(KEY, PASSWORD.encode() + SALT, name).digest())
    add(f"{algo} SALT_AND_PASSWORD", {"hashAlgorithm": algo, "signerKey": key, "passwordHashOrder": "SALT_AND_PASSWORD"},
        UNICODE, SALT, hmac.new(KEY, SALT + UNICODE.encode(), name).digest())
long_key = bytes(range(200))  # longer than every block size: HMAC hashes the key first
add("HMAC_SHA256 long key url-safe", {"hashAlgorithm": "HMAC_SHA256", "signerKey": base64.urlsafe_b64encode(long_key).decode().rstrip("=")},
    PASSWORD, SALT, hmac.new(long_key, PASSWORD.encode() + SALT, "sha256").digest())

for rounds, length in ((1, 20), (1000, 20), (1000, 64)):
    add(f"PBKDF_SHA1 r{rounds} dk{length}", {"hashAlgorithm": "PBKDF_SHA1", "rounds": rounds}, PASSWORD, SALT,
        hashlib.pbkdf2_hmac("sha1", PASSWORD.encode(), SALT, rounds, length))
for rounds, length in ((1, 32), (1000, 32), (2000, 48)):
    add(f"PBKDF2_SHA256 r{rounds} dk{length}", {"hashAlgorithm": "PBKDF2_SHA256", "rounds": rounds}, UNICODE, SALT,
        hashlib.pbkdf2_hmac("sha256", UNICODE.encode(), SALT, rounds, length))


def firebase_scrypt(password, salt, key, separator, rounds, mem_cost):
    derived = hashlib.scrypt(password.encode(), salt=salt + separator, n=1 << mem_cost, r=rounds, p=1, dklen=64)
    encryptor = Cipher(algorithms.AES(derived[:32]), modes.CTR(b"\x00" * 16)).encryptor()
    return encryptor.update(key) + encryptor.finalize()


SIGNER = bytes((i * 37 + 11) % 256 for i in range(64))
for rounds, mem_cost, sep in ((8, 14, b"\x07"), (1, 1, b""), (4, 10, b"\x01\x02")):
    wire = {"hashAlgorithm": "SCRYPT", "signerKey": b64(SIGNER), "rounds": rounds, "memoryCost": mem_cost}
    if sep:
        wire["saltSeparator"] = b64(sep)
    add(f"SCRYPT r{rounds} m{mem_cost}", wire, PASSWORD, SALT, firebase_scrypt(PASSWORD, SALT, SIGNER, sep, rounds, mem_cost))

for n, r, p, dk in ((1024, 8, 1, 64), (16, 1, 1, 32), (256, 2, 3, 17)):
    add(f"STANDARD_SCRYPT N{n} r{r} p{p} dk{dk}",
        {"hashAlgorithm": "STANDARD_SCRYPT", "cpuMemCost": n, "blockSize": r, "parallelization": p, "dkLen": dk},
        UNICODE, SALT, hashlib.scrypt(UNICODE.encode(), salt=SALT, n=n, r=r, p=p, dklen=dk))

# Empty passwords and salts, and scrypt's largest block size with p = 1.
add("PBKDF2_SHA256 empty password and salt", {"hashAlgorithm": "PBKDF2_SHA256", "rounds": 10}, "", b"",
    hashlib.pbkdf2_hmac("sha256", b"", b"", 10, 32))
add("SCRYPT empty password and salt", {"hashAlgorithm": "SCRYPT", "signerKey": b64(SIGNER), "rounds": 2, "memoryCost": 4}, "", b"",
    firebase_scrypt("", b"", SIGNER, b"", 2, 4))
add("STANDARD_SCRYPT empty password and salt", {"hashAlgorithm": "STANDARD_SCRYPT", "cpuMemCost": 16, "blockSize": 16, "parallelization": 1, "dkLen": 16},
    "", b"", hashlib.scrypt(b"", salt=b"", n=16, r=16, p=1, dklen=16))
add("HMAC_SHA1 empty password and salt", {"hashAlgorithm": "HMAC_SHA1", "signerKey": b64(KEY)}, "", b"", hmac.new(KEY, b"", "sha1").digest())

for variant, cost, salt22, password in (
    ("2b", 4, "abcdefghijklmnopqrstuu", PASSWORD),
    ("2a", 5, "Ro0CUfOqk6cXEKf3dyaM7O", UNICODE),
    ("2b", 6, "......................", ""),
    ("2b", 4, "x" * 21 + "e", "a" * 72),
):
    mcf = bcrypt.hashpw(password.encode(), f"${variant}${cost:02d}${salt22}".encode())
    add(f"BCRYPT {variant} cost{cost} pw{len(password.encode())}", {"hashAlgorithm": "BCRYPT"}, password, b"", mcf)
# $2y$ (PHP's crypt_blowfish) computes what $2b$ does; only the prefix differs.
mcf = bcrypt.hashpw(PASSWORD.encode(), b"$2b$04$Ro0CUfOqk6cXEKf3dyaM7O").replace(b"$2b$", b"$2y$", 1)
assert bcrypt.checkpw(PASSWORD.encode(), mcf)
add("BCRYPT 2y cost4", {"hashAlgorithm": "BCRYPT"}, PASSWORD, b"", mcf)

print("\n".join(lines))
