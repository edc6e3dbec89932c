from croupier.clients.cli.main import run

run()
