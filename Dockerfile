# syntax=docker/dockerfile:1
# Flint's container image (docs/deploy.md): built in the Swift image, run in Debian's slim image as a user of its own,
# with the binary alone (the package declares no resource bundles: templates, texts and console assets are compiled
# in; any *.resources bundle a later build makes beside the binary is copied with it, where Bundle.module looks).
#   docker build -t flint .
#   docker run -p 9099:9099 -v flint-data:/var/lib/flint --env-file flint.env flint
ARG SWIFT_IMAGE=swift:6.2-bookworm
ARG RUNTIME_IMAGE=debian:bookworm-slim

FROM ${SWIFT_IMAGE} AS build
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        libsqlite3-dev libssl-dev libxml2-dev libxmlsec1-dev pkg-config \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# Package.resolved too when the build context has one (it pins the dependencies' versions).
COPY Package.* ./
COPY Sources ./Sources
# The manifest names these targets' folders; only `flint` is built.
COPY Tests ./Tests
COPY Benchmarks ./Benchmarks
COPY Examples ./Examples
RUN swift build -c release --product flint --static-swift-stdlib \
    && bin="$(swift build -c release --show-bin-path)" \
    && install -D -m 0755 "$bin/flint" /staging/usr/local/bin/flint \
    && find "$bin" -maxdepth 1 -name '*.resources' -exec cp -R {} /staging/usr/local/bin/ \;

FROM ${RUNTIME_IMAGE}
# What the binary links (SQLite, OpenSSL's libcrypto, zlib, the C++ runtime, and libxml2 with xmlsec1 for SAML),
# CA certificates for its outgoing TLS (SMTP, SMS providers, identity providers' keys, webhooks), and curl for the
# health check.
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        ca-certificates curl libsqlite3-0 libssl3 libstdc++6 zlib1g libxml2 libxmlsec1 libxmlsec1-openssl libxslt1.1 libicu72 liblzma5 \
    && rm -rf /var/lib/apt/lists/* \
    && groupadd --system --gid 10001 flint \
    && useradd --system --uid 10001 --gid flint --home-dir /var/lib/flint --no-create-home --shell /usr/sbin/nologin flint \
    && install -d -o flint -g flint -m 0700 /var/lib/flint
COPY --from=build /staging/ /
USER flint:flint
WORKDIR /var/lib/flint
# Reachable from outside the container; dev mode is never implied on a non-loopback host, so say FLINT_DEV=1 to try
# it out, or run production mode with FLINT_DEV=0, FLINT_ADMIN_TOKEN and FLINT_MASTER_KEY (or FLINT_MASTER_KEY_FILE).
ENV FLINT_HOST=0.0.0.0 \
    FLINT_PORT=9099 \
    FLINT_DATA=/var/lib/flint \
    FLINT_DRAIN_TIME=5
VOLUME ["/var/lib/flint"]
EXPOSE 9099
# Readiness: 503 while the node starts (migrations), cannot reach its database, or drains.
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
    CMD curl -fsS -o /dev/null "http://127.0.0.1:${FLINT_PORT}/readyz" || exit 1
# `docker stop` sends SIGTERM: the node drains for FLINT_DRAIN_TIME seconds, then stops (the default stop timeout,
# 10 s, covers 5).
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/flint", "serve"]
