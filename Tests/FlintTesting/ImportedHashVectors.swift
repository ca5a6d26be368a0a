/// Vectors for every import algorithm, computed by scripts/hash-vectors.py with Python's hashlib, hmac, `cryptography`
/// and `bcrypt` (not by the code under test): (name, the request's hash options, password, salt, hash), salt and
/// hash in standard base64 as `accounts:batchCreate` carries them. Regenerate with `python3 scripts/hash-vectors.py`.
/// Shared by FlintCoreTests (the algorithms) and FlintServerTests (imported users signing in over HTTP).
public let importedHashVectors: [(name: String, wire: String, password: String, salt: String, hash: String)] = [
    (
        "MD5 r0", #"{"hashAlgorithm":"MD5","rounds":0}"#, "correct horse battery staple", "TmFDbC0A/y1zYWx0",
        "YzYyZTIyYjU0ZTJkZmEwNDQ3NzA2OWQ2ZWQzYjIyNDM="
    ),
    (
        "MD5 r1", #"{"hashAlgorithm":"MD5","rounds":1}"#, "correct horse battery staple", "TmFDbC0A/y1zYWx0",
        "ZDI5MGMyMGZkMjBlMzZhZjdkOTFmNzY2MjA0YTliZjI="
    ),
    (
        "MD5 r2", #"{"hashAlgorithm":"MD5","rounds":2}"#, "correct horse battery staple", "TmFDbC0A/y1zYWx0",
        "MjAxZGRlZmVjMjg5MzA0NDEwMWQ3Yjg3NGVkYmMwZjM="
    ),
    (
        "MD5 r5", #"{"hashAlgorithm":"MD5","rounds":5}"#, "correct horse battery staple", "TmFDbC0A/y1zYWx0",
        "YWUyNjE5ZDM3NjZjYjQ3ZTI4OGQyMTJhOWQ4Y2M1NTI="
    ),
    (
        "MD5 r1 PASSWORD_AND_SALT", #"{"hashAlgorithm":"MD5","passwordHashOrder":"PASSWORD_AND_SALT","rounds":1}"#, "correct horse battery staple",
        "TmFDbC0A/y1zYWx0", "MzU2MDFjZjRkZGFhOTY1OTU1NWNiMGRiMGFlMTYxM2I="
    ),
    ("MD5 r0 no salt", #"{"hashAlgorithm":"MD5"}"#, "pässwörd-密码", "", "ZmQwZGM3NDI1NDczZmU4MDc0NTViYThhODIzNDRiOTg="),
    ("SHA1 r1", #"{"hashAlgorithm":"SHA1","rounds":1}"#, "correct horse battery staple", "TmFDbC0A/y1zYWx0", "xSmJ7rcPKI4nKdF+sMfbD8hLaNI="),
    ("SHA1 r2", #"{"hashAlgorithm":"SHA1","rounds":2}"#, "correct horse battery staple", "TmFDbC0A/y1zYWx0", "4VbS33oStYpHU+1JFQgi6GD86F8="),
    ("SHA1 r100", #"{"hashAlgorithm":"SHA1","rounds":100}"#, "correct horse battery staple", "TmFDbC0A/y1zYWx0", "JhmFJ3SiFbSiXY+dzKfrGmQ9xtg="),
    (
        "SHA1 r3 PASSWORD_AND_SALT", #"{"hashAlgorithm":"SHA1","passwordHashOrder":"PASSWORD_AND_SALT","rounds":3}"#, "correct horse battery staple",
        "TmFDbC0A/y1zYWx0", "Mq6XIJ8bInskZHnSx3WRqr84q9k="
    ),
    (
        "SHA1 r1 SALT_AND_PASSWORD unicode", #"{"hashAlgorithm":"SHA1","passwordHashOrder":"SALT_AND_PASSWORD","rounds":"1"}"#, "pässwörd-密码",
        "TmFDbC0A/y1zYWx0", "a6r9ErhJDqt/2y4DZ/PRmAonccU="
    ),
    (
        "SHA256 r1", #"{"hashAlgorithm":"SHA256","rounds":1}"#, "correct horse battery staple", "TmFDbC0A/y1zYWx0",
        "UNQV3IkgAFQTJkmR3dojTg8OWINW3MysSwKVGgBw6ho="
    ),
    (
        "SHA256 r2", #"{"hashAlgorithm":"SHA256","rounds":2}"#, "correct horse battery staple", "TmFDbC0A/y1zYWx0",
        "NdmptNz28LncD+yRRHulhXAL97IZ2SgloNTF/HHKBwQ="
    ),
    (
        "SHA256 r100", #"{"hashAlgorithm":"SHA256","rounds":100}"#, "correct horse battery staple", "TmFDbC0A/y1zYWx0",
        "LMtvY7TSP9PjJ9z7eYHl8shGPyJN2wWDQ4kjm/3r/qk="
    ),
    (
        "SHA256 r3 PASSWORD_AND_SALT", #"{"hashAlgorithm":"SHA256","passwordHashOrder":"PASSWORD_AND_SALT","rounds":3}"#,
        "correct horse battery staple", "TmFDbC0A/y1zYWx0", "CqPBbQKpDHMl72gB/uASVkBnJ7q3uYZsMdVIafnWzY4="
    ),
    (
        "SHA256 r1 SALT_AND_PASSWORD unicode", #"{"hashAlgorithm":"SHA256","passwordHashOrder":"SALT_AND_PASSWORD","rounds":"1"}"#, "pässwörd-密码",
        "TmFDbC0A/y1zYWx0", "3ianxfW6SW4Ly17vxdP4qvrXp1cumyT+wQZh/5GzuLM="
    ),
    (
        "SHA512 r1", #"{"hashAlgorithm":"SHA512","rounds":1}"#, "correct horse battery staple", "TmFDbC0A/y1zYWx0",
        "3ybjTqKwlvdMRGZgCluKGfde9nNaLIG4mgqo1NBQVTVCmbAYWJFO3dGhCwm4pw7C3y/+ncO7VUQj3JJ01pYTAA=="
    ),
    (
        "SHA512 r2", #"{"hashAlgorithm":"SHA512","rounds":2}"#, "correct horse battery staple", "TmFDbC0A/y1zYWx0",
        "XX9jRKqvj8c15Rn/I6CbaZyzRnIX3IshT2wSz7zbldt/xrkoBlO/0c8dTAzNrkfTszqbwpbCWwJCSVIfLweodA=="
    ),
    (
        "SHA512 r100", #"{"hashAlgorithm":"SHA512","rounds":100}"#, "correct horse battery staple", "TmFDbC0A/y1zYWx0",
        "9+7S6UfQvgFRgTap2LqTHYZdmfuY/2mBIb75OVW64vQLvTKdnAQ82Qsc2E4ktCwglMU4qLrMBLknrun33yJ2Pg=="
    ),
    (
        "SHA512 r3 PASSWORD_AND_SALT", #"{"hashAlgorithm":"SHA512","passwordHashOrder":"PASSWORD_AND_SALT","rounds":3}"#,
        "correct horse battery staple", "TmFDbC0A/y1zYWx0", "1qQxM1NOjPBjRLr+qkPdswJDj82zfoUwUcGIHJ7lLpmOoMKjzibjNXeIebMLXC74kAtQdHUONtLFhVNA9n8WaQ=="
    ),
    (
        "SHA512 r1 SALT_AND_PASSWORD unicode", #"{"hashAlgorithm":"SHA512","passwordHashOrder":"SALT_AND_PASSWORD","rounds":"1"}"#, "pässwörd-密码",
        "TmFDbC0A/y1zYWx0", "V0wXgBILgUkKVIofzfm1sDkk1rDaq6HEi5piuII9Q35GfD4laNSE3Cc3Mh/iAKU7gAiTnbyE0xjqPbbn1DyR5A=="
    ),
    (
        "HMAC_MD5", #"{"hashAlgorithm":"HMAC_MD5","signerKey":"ZmxpbnQtdGVzdC1zaWduZXIta2V5AAEC"}"#, "correct horse battery staple",
        "TmFDbC0A/y1zYWx0", "oj5VaPyX4fXWrPnhmHx/2A=="
    ),
    (
        "HMAC_MD5 SALT_AND_PASSWORD",
        #"{"hashAlgorithm":"HMAC_MD5","passwordHashOrder":"SALT_AND_PASSWORD","signerKey":"ZmxpbnQtdGVzdC1zaWduZXIta2V5AAEC"}"#, "pässwörd-密码",
        "TmFDbC0A/y1zYWx0", "GJtxPNn/NPuOje11yA+V3g=="
    ),
    (
        "HMAC_SHA1", #"{"hashAlgorithm":"HMAC_SHA1","signerKey":"ZmxpbnQtdGVzdC1zaWduZXIta2V5AAEC"}"#, "correct horse battery staple",
        "TmFDbC0A/y1zYWx0", "X6wgi2r68Ad0egdwtcaYpO/tRUY="
    ),
    (
        "HMAC_SHA1 SALT_AND_PASSWORD",
        #"{"hashAlgorithm":"HMAC_SHA1","passwordHashOrder":"SALT_AND_PASSWORD","signerKey":"ZmxpbnQtdGVzdC1zaWduZXIta2V5AAEC"}"#, "pässwörd-密码",
        "TmFDbC0A/y1zYWx0", "zb8VueOk5bamZvsep5yxq1C68wI="
    ),
    (
        "HMAC_SHA256", #"{"hashAlgorithm":"HMAC_SHA256","signerKey":"ZmxpbnQtdGVzdC1zaWduZXIta2V5AAEC"}"#, "correct horse battery staple",
        "TmFDbC0A/y1zYWx0", "deTNE1SZSdZuMj2cC5VVkTGt5A9u+h5CdviKwdwhTlY="
    ),
    (
        "HMAC_SHA256 SALT_AND_PASSWORD",
        #"{"hashAlgorithm":"HMAC_SHA256","passwordHashOrder":"SALT_AND_PASSWORD","signerKey":"ZmxpbnQtdGVzdC1zaWduZXIta2V5AAEC"}"#, "pässwörd-密码",
        "TmFDbC0A/y1zYWx0", "W24/Lzi94dmOFWu98mJnzlYru5naEZHXqcfDWEiVp6c="
    ),
    (
        "HMAC_SHA512", #"{"hashAlgorithm":"HMAC_SHA512","signerKey":"ZmxpbnQtdGVzdC1zaWduZXIta2V5AAEC"}"#, "correct horse battery staple",
        "TmFDbC0A/y1zYWx0", "6smvvurHbsWrpkQF4f76z2cigp8AiWsyw9gahM+UuKecvPeyj3yZlXTMAZ5IzklNEmAi76MN7i39n2XY25SBEQ=="
    ),
    (
        "HMAC_SHA512 SALT_AND_PASSWORD",
        #"{"hashAlgorithm":"HMAC_SHA512","passwordHashOrder":"SALT_AND_PASSWORD","signerKey":"ZmxpbnQtdGVzdC1zaWduZXIta2V5AAEC"}"#, "pässwörd-密码",
        "TmFDbC0A/y1zYWx0", "MRT7WYy+iPVV1WvggQdXO6ktUDFP2rHI6QM3qW9FwycaW39ErDBdinE/KwAI95NuLPDKmVSabxs76NNXiUOIKQ=="
    ),
    (
        "HMAC_SHA256 long key url-safe",
        #"{"hashAlgorithm":"HMAC_SHA256","signerKey":"AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8gISIjJCUmJygpKissLS4vMDEyMzQ1Njc4OTo7PD0-P0BBQkNERUZHSElKS0xNTk9QUVJTVFVWV1hZWltcXV5fYGFiY2RlZmdoaWprbG1ub3BxcnN0dXZ3eHl6e3x9fn-AgYKDhIWGh4iJiouMjY6PkJGSk5SVlpeYmZqbnJ2en6ChoqOkpaanqKmqq6ytrq-wsbKztLW2t7i5uru8vb6_wMHCw8TFxsc"}"#,
        "correct horse battery staple", "TmFDbC0A/y1zYWx0", "VVusQKxgg2g3Eajs1imzIPABpiNu248nUZytFXtbpuU="
    ),
    (
        "PBKDF_SHA1 r1 dk20", #"{"hashAlgorithm":"PBKDF_SHA1","rounds":1}"#, "correct horse battery staple", "TmFDbC0A/y1zYWx0",
        "RRR0RdVnuv9Lif4QmemRCkE3FHw="
    ),
    (
        "PBKDF_SHA1 r1000 dk20", #"{"hashAlgorithm":"PBKDF_SHA1","rounds":1000}"#, "correct horse battery staple", "TmFDbC0A/y1zYWx0",
        "kkzI6hBGvRnbByuh6lzw7aUhCnE="
    ),
    (
        "PBKDF_SHA1 r1000 dk64", #"{"hashAlgorithm":"PBKDF_SHA1","rounds":1000}"#, "correct horse battery staple", "TmFDbC0A/y1zYWx0",
        "kkzI6hBGvRnbByuh6lzw7aUhCnEHwa6gqjZGO6TZaE2Sm+Q65I8DS4aB4hSTsgdDyVEykNnaTm8hu+9HoIPrlw=="
    ),
    (
        "PBKDF2_SHA256 r1 dk32", #"{"hashAlgorithm":"PBKDF2_SHA256","rounds":1}"#, "pässwörd-密码", "TmFDbC0A/y1zYWx0",
        "OzfkPBwShnB4AQ1OYokyUiLJkN8TGefBCGz2fM5kAkc="
    ),
    (
        "PBKDF2_SHA256 r1000 dk32", #"{"hashAlgorithm":"PBKDF2_SHA256","rounds":1000}"#, "pässwörd-密码", "TmFDbC0A/y1zYWx0",
        "PjUBEQNNaRewKLKcQPNYD5myBK2VsyWyjcCe68bLESU="
    ),
    (
        "PBKDF2_SHA256 r2000 dk48", #"{"hashAlgorithm":"PBKDF2_SHA256","rounds":2000}"#, "pässwörd-密码", "TmFDbC0A/y1zYWx0",
        "l+C4t0UxPdIsix+aIO5mo8eoanOXGzKnAEgMyMyrqL9t0TSjhDxOmeaIVtLcS1bM"
    ),
    (
        "SCRYPT r8 m14",
        #"{"hashAlgorithm":"SCRYPT","memoryCost":14,"rounds":8,"saltSeparator":"Bw==","signerKey":"CzBVep/E6Q4zWH2ix+wRNluApcrvFDleg6jN8hc8YYar0PUaP2SJrtP4HUJnjLHW+yBFao+02f4jSG2St9wBJg=="}"#,
        "correct horse battery staple", "TmFDbC0A/y1zYWx0", "zHX0027Y+SOvv7k4so+9JhXWf9ItCcJS92tmWGkY1Zpoy8vE30zmQk6ouYBKd1buOLDW8CR3KnZsklz7Rt5ARw=="
    ),
    (
        "SCRYPT r1 m1",
        #"{"hashAlgorithm":"SCRYPT","memoryCost":1,"rounds":1,"signerKey":"CzBVep/E6Q4zWH2ix+wRNluApcrvFDleg6jN8hc8YYar0PUaP2SJrtP4HUJnjLHW+yBFao+02f4jSG2St9wBJg=="}"#,
        "correct horse battery staple", "TmFDbC0A/y1zYWx0", "eTItGeeVawEcwCTz/tDnAhOClTgo0SAcvOdGCnjfIBqnaKg4QFTt0t4pZZqE2elCNQbb8ef5VGSSuU2PRILVzw=="
    ),
    (
        "SCRYPT r4 m10",
        #"{"hashAlgorithm":"SCRYPT","memoryCost":10,"rounds":4,"saltSeparator":"AQI=","signerKey":"CzBVep/E6Q4zWH2ix+wRNluApcrvFDleg6jN8hc8YYar0PUaP2SJrtP4HUJnjLHW+yBFao+02f4jSG2St9wBJg=="}"#,
        "correct horse battery staple", "TmFDbC0A/y1zYWx0", "qoqJUcqS02s+9A6kId9HpKhwrJPikfXDYLrMhi3eunjnoKAFVFPE07q3/Vuaq9SjTeckR/bEjBJph4IieRJTlw=="
    ),
    (
        "STANDARD_SCRYPT N1024 r8 p1 dk64", #"{"blockSize":8,"cpuMemCost":1024,"dkLen":64,"hashAlgorithm":"STANDARD_SCRYPT","parallelization":1}"#,
        "pässwörd-密码", "TmFDbC0A/y1zYWx0", "wdb4mHk4Iphhywfe69xNA7QPfGzYXRz8Caxqy14SylmEzdX6NjaJy3KaIyimL+43ty6zo5wEc57h6pjN+EPSDQ=="
    ),
    (
        "STANDARD_SCRYPT N16 r1 p1 dk32", #"{"blockSize":1,"cpuMemCost":16,"dkLen":32,"hashAlgorithm":"STANDARD_SCRYPT","parallelization":1}"#,
        "pässwörd-密码", "TmFDbC0A/y1zYWx0", "mWALUIqNPNwKzeRQ+x5RZ1egyjCl27ZDEl5bakCf2KE="
    ),
    (
        "STANDARD_SCRYPT N256 r2 p3 dk17", #"{"blockSize":2,"cpuMemCost":256,"dkLen":17,"hashAlgorithm":"STANDARD_SCRYPT","parallelization":3}"#,
        "pässwörd-密码", "TmFDbC0A/y1zYWx0", "GlgFFL351j4yqNQJy0fZXUY="
    ),
    (
        "PBKDF2_SHA256 empty password and salt", #"{"hashAlgorithm":"PBKDF2_SHA256","rounds":10}"#, "", "",
        "pd8gVkdnrAnSY5/7Zt1J2Q5Tzjim/cSGUrhJE/z7isc="
    ),
    (
        "SCRYPT empty password and salt",
        #"{"hashAlgorithm":"SCRYPT","memoryCost":4,"rounds":2,"signerKey":"CzBVep/E6Q4zWH2ix+wRNluApcrvFDleg6jN8hc8YYar0PUaP2SJrtP4HUJnjLHW+yBFao+02f4jSG2St9wBJg=="}"#,
        "", "", "r/BGbzNMPg6t3cju/Ohiz9HujniOXqRJpheETmTiujMtRgR9OsMXv6UR0Rl8mxo32cGWr8n8jGPHIE6t/DpRCw=="
    ),
    (
        "STANDARD_SCRYPT empty password and salt",
        #"{"blockSize":16,"cpuMemCost":16,"dkLen":16,"hashAlgorithm":"STANDARD_SCRYPT","parallelization":1}"#, "", "", "3guqZMMj4MLdNYR/NY2O1A=="
    ),
    (
        "HMAC_SHA1 empty password and salt", #"{"hashAlgorithm":"HMAC_SHA1","signerKey":"ZmxpbnQtdGVzdC1zaWduZXIta2V5AAEC"}"#, "", "",
        "PIlFVUiZ9RVVHXQhamJSIhgwjM8="
    ),
    (
        "BCRYPT 2b cost4 pw28", #"{"hashAlgorithm":"BCRYPT"}"#, "correct horse battery staple", "",
        "JDJiJDA0JGFiY2RlZmdoaWprbG1ub3BxcnN0dXU3RUpWN2tkakJCUXh5YjBIalRoOUtTNy5MYWgvNkNH"
    ),
    (
        "BCRYPT 2a cost5 pw17", #"{"hashAlgorithm":"BCRYPT"}"#, "pässwörd-密码", "",
        "JDJhJDA1JFJvMENVZk9xazZjWEVLZjNkeWFNN09hbXdsbkRyOU42V09WV3l2SzBNbGptWC9RQk5seXlD"
    ),
    (
        "BCRYPT 2b cost6 pw0", #"{"hashAlgorithm":"BCRYPT"}"#, "", "",
        "JDJiJDA2JC4uLi4uLi4uLi4uLi4uLi4uLi4uLi44N0ZJMGRPYkdXci5tNWZNdXBBazdENm1XUTNzNzBX"
    ),
    (
        "BCRYPT 2b cost4 pw72", #"{"hashAlgorithm":"BCRYPT"}"#, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "",
        "JDJiJDA0JHh4eHh4eHh4eHh4eHh4eHh4eHh4eGUvRG9kSDgvZDNNV3lyMzYuNmVDZS9qQ0JpWVhvbFZH"
    ),
    (
        "BCRYPT 2y cost4", #"{"hashAlgorithm":"BCRYPT"}"#, "correct horse battery staple", "",
        "JDJ5JDA0JFJvMENVZk9xazZjWEVLZjNkeWFNN08uaGROS1ZFcHVZZnQwRHlPWVNkTWVSQjlCZnY2RVl1"
    ),
]
