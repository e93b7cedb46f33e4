$site = 'ams'
class base { notify { "site ${site}": } }
node default { include base }
