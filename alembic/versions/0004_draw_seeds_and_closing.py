"""draw seeds kept apart from the log, an evening closed by the organiser

Revision ID: d7a3f1c2b9e4
Revises: 0003_pictures
Create Date: 2026-12-06 10:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op


revision: str = 'd7a3f1c2b9e4'
down_revision: str | None = '0003_pictures'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('draw_seed',
    sa.Column('evening_id', sa.Integer(), nullable=False),
    sa.Column('game_idx', sa.Integer(), nullable=False),
    sa.Column('seed_hex', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['evening_id'], ['evening.id'], ),
    sa.PrimaryKeyConstraint('evening_id', 'game_idx')
    )
    with op.batch_alter_table('evening', schema=None) as batch_op:
        batch_op.add_column(sa.Column('closed_at', sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column('closed_by', sqlmodel.sql.sqltypes.AutoString(length=30), nullable=False, server_default=''))


def downgrade() -> None:
    with op.batch_alter_table('evening', schema=None) as batch_op:
        batch_op.drop_column('closed_by')
        batch_op.drop_column('closed_at')
    op.drop_table('draw_seed')
