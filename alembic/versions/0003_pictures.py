"""pictures: lot photos and partners' logos

Revision ID: 0003_pictures
Revises: 0002
Create Date: 2026-12-08 10:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op


revision: str = '0003_pictures'
down_revision: str | None = '0002'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('picture',
    sa.Column('evening_id', sa.Integer(), nullable=False),
    sa.Column('digest', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=False),
    sa.Column('mime', sqlmodel.sql.sqltypes.AutoString(length=32), nullable=False),
    sa.Column('width', sa.Integer(), nullable=False),
    sa.Column('height', sa.Integer(), nullable=False),
    sa.Column('data', sa.LargeBinary(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['evening_id'], ['evening.id'], ),
    sa.PrimaryKeyConstraint('evening_id', 'digest')
    )
    with op.batch_alter_table('picture', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_picture_digest'), ['digest'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('picture', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_picture_digest'))

    op.drop_table('picture')
