"""People's email addresses: one form for storing, finding and counting them.

An address is kept and compared as typed, without surrounding spaces, in Unicode
compatibility form (NFKC) and case-folded. Every look-up of an account, a member or an
invitation by email, and the sign-in lockout's count, use this one form, so two spellings
that a database's case rules would take for one address ("\\u017fetter@…", with a long s, and "setter@…") are
one address everywhere, or two everywhere.
"""

import unicodedata


def email_normalise(value: str) -> str:
    return unicodedata.normalize("NFKC", value.strip()).casefold()
