// Written next: see the Knights Challenge issue.
