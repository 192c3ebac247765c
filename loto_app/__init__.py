"""Loto: a traditional French association loto evening, run from phones, a tablet and a TV."""
