@user { 'bob': }
@user { 'bob': }
