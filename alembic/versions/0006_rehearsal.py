"""a rehearsal of an evening: the evening it copies

Revision ID: 0006_rehearsal
Revises: 0005_invitations
Create Date: 2026-12-07 11:30:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op


revision: str = "0006_rehearsal"
down_revision: str | None = "0005_invitations"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table('evening', schema=None) as batch_op:
        batch_op.add_column(sa.Column('rehearsal_of', sa.Integer(), nullable=True))
    op.create_index('ix_evening_rehearsal_of', 'evening', ['rehearsal_of'], unique=True)


def downgrade() -> None:
    op.drop_index('ix_evening_rehearsal_of', table_name='evening')
    with op.batch_alter_table('evening', schema=None) as batch_op:
        batch_op.drop_column('rehearsal_of')
