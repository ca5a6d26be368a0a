#!/usr/bin/env python3
"""A real SMTP server for FlintSMTP's integration tests (aiosmtpd), started by scripts/smtp-server.

It listens on 127.0.0.1 on three free ports and writes them to ROOT/ports once they accept connections:
  starttls  STARTTLS offered; AUTH PLAIN and LOGIN offered only after TLS, and required before MAIL
  tls       TLS from the first byte; AUTH PLAIN and LOGIN required before MAIL
  plain     no TLS, no AUTH
  login     like starttls, but offering AUTH LOGIN only
Every accepted message is written to MAILDIR as NAME.eml, the message as received after X-Test-* lines naming the
port, the authenticated user and the envelope. Test hooks, by recipient local part:
  tempfail...  the end of DATA is answered 451 the first time for each Message-ID and recipient, then accepted
  reject...    RCPT TO is answered 550
"""
import argparse
import asyncio
import itertools
import os
import re
import ssl
import time
import warnings

from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword


class Mailbox:
    """What the three servers share: the maildir, the credentials and the deferrals already given."""

    def __init__(self, maildir, user, password):
        self.maildir = maildir
        self.user = user.encode()
        self.password = password.encode()
        self.deferred = set()
        self.counter = itertools.count(1)

    def authenticate(self, server, session, envelope, mechanism, auth_data):
        ok = isinstance(auth_data, LoginPassword) and auth_data.login == self.user and auth_data.password == self.password
        return AuthResult(success=ok, handled=False, auth_data=auth_data if ok else None)

    def store(self, port_name, session, envelope):
        number = next(self.counter)
        name = f"{time.time_ns()}-{number:06d}"
        user = session.auth_data.login.decode() if isinstance(session.auth_data, LoginPassword) else ""
        head = (
            f"X-Test-Port: {port_name}\r\n"
            f"X-Test-Auth-User: {user}\r\n"
            f"X-Test-Envelope-From: {envelope.mail_from}\r\n"
            f"X-Test-Envelope-To: {', '.join(envelope.rcpt_tos)}\r\n"
        ).encode()
        temporary = os.path.join(self.maildir, f".{name}.tmp")
        with open(temporary, "wb") as file:
            file.write(head + envelope.original_content)
        os.replace(temporary, os.path.join(self.maildir, f"{name}.eml"))
        return name


class Handler:
    """aiosmtpd's hooks for one port."""

    def __init__(self, mailbox, port_name):
        self.mailbox = mailbox
        self.port_name = port_name

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address.split("@")[0].lower().startswith("reject"):
            return f"550 5.1.1 <{address}>: recipient rejected (test hook)"
        envelope.rcpt_tos.append(address)
        return "250 2.1.5 OK"

    async def handle_DATA(self, server, session, envelope):
        header = envelope.original_content.split(b"\r\n\r\n", 1)[0]
        match = re.search(rb"^Message-ID:\s*(\S+)", header, re.IGNORECASE | re.MULTILINE)
        message_id = match.group(1).decode(errors="replace") if match else ""
        fresh = [
            (message_id, rcpt)
            for rcpt in envelope.rcpt_tos
            if rcpt.split("@")[0].lower().startswith("tempfail") and (message_id, rcpt) not in self.mailbox.deferred
        ]
        if fresh:
            self.mailbox.deferred.update(fresh)
            return "451 4.3.0 try again later (test hook)"
        name = self.mailbox.store(self.port_name, session, envelope)
        return f"250 2.0.0 OK: queued as {name}"


async def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--root", required=True, help="where the ports file goes")
    parser.add_argument("--maildir", required=True)
    parser.add_argument("--cert", required=True)
    parser.add_argument("--key", required=True)
    parser.add_argument("--user", required=True)
    parser.add_argument("--password-file", required=True)
    args = parser.parse_args()
    with open(args.password_file) as file:
        password = file.read().strip()

    mailbox = Mailbox(args.maildir, args.user, password)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(args.cert, args.key)
    loop = asyncio.get_running_loop()
    common = {"hostname": "flint-test-smtp", "authenticator": mailbox.authenticate}

    starttls = await loop.create_server(
        lambda: SMTP(Handler(mailbox, "starttls"), tls_context=context, require_starttls=True, auth_required=True, **common),
        "127.0.0.1",
        0,
    )
    # The connection is TLS from the start, so AUTH need not wait for STARTTLS.
    implicit = await loop.create_server(
        lambda: SMTP(Handler(mailbox, "tls"), auth_required=True, auth_require_tls=False, **common),
        "127.0.0.1",
        0,
        ssl=context,
    )
    plain = await loop.create_server(lambda: SMTP(Handler(mailbox, "plain"), hostname="flint-test-smtp"), "127.0.0.1", 0)
    login = await loop.create_server(
        lambda: SMTP(
            Handler(mailbox, "login"), tls_context=context, require_starttls=True, auth_required=True, auth_exclude_mechanism=["PLAIN"], **common
        ),
        "127.0.0.1",
        0,
    )

    servers = [("starttls", starttls), ("tls", implicit), ("plain", plain), ("login", login)]
    ports = {name: server.sockets[0].getsockname()[1] for name, server in servers}
    temporary = os.path.join(args.root, "ports.tmp")
    with open(temporary, "w") as file:
        file.writelines(f"{name}={port}\n" for name, port in ports.items())
    os.replace(temporary, os.path.join(args.root, "ports"))
    await asyncio.Event().wait()


if __name__ == "__main__":
    warnings.simplefilter("ignore")
    asyncio.run(main())
