module airq-e2e-tools

go 1.22
