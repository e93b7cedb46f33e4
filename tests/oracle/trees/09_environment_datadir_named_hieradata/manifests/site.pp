node default { include foo }
