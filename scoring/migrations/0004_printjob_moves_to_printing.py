# Print jobs belong to the printing app from here on. Only the model's state leaves:
# the table and its rows stay, and printing's first migration takes them over.

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0003_roundevent_reopen"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="PrintJob")],
            database_operations=[],
        ),
    ]
