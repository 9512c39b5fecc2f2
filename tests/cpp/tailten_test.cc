// Written next: see the Tailten issue.
