"""The evening's records: the end-of-evening report (games, claims, lots, till, audit check)
with its CSV and PDF exports, and paper cartons for players without a phone.

Read-only: nothing here writes to the database or changes an evening.
"""
