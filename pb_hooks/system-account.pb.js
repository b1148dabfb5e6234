/// <reference path="../pb_data/types.d.ts" />
// `pocketbase system-account <email> [password-file]`: creates the system superuser, or sets its
// password when it exists. The password comes from the file (Docker secrets), else from the
// environment variable PB_SUPERUSER_PASSWORD, never from the command line: PocketBase's own
// `superuser upsert <email> <password>` puts it there, where `ps` shows it to every user of the
// machine and a failed call prints it back. (Standard input does not serve: Node gives a child a
// socket there, which Go cannot open as /dev/stdin.) Used by `npm start` (scripts/lib/pocketbase.ts)
// and the PocketBase container (docker/pocketbase-entrypoint.sh).
$app.rootCmd.addCommand(
  new Command({
    use: "system-account",
    short: "Creates or updates the system superuser (password from a file or $PB_SUPERUSER_PASSWORD)",
    silenceUsage: true,
    runE: (cmd, args) => {
      if (args.length < 1 || args.length > 2)
        throw new Error("usage: system-account <email> [password-file]");
      const [email, file] = args;
      // One trailing line break is the file's, not the password's (`echo secret > file`).
      const password = file
        ? toString($os.readFile(file)).replace(/\r?\n$/, "")
        : $os.getenv("PB_SUPERUSER_PASSWORD");
      if (!password) throw new Error(file ? `${file} is empty` : "PB_SUPERUSER_PASSWORD is not set");
      let superuser;
      try {
        superuser = $app.findAuthRecordByEmail("_superusers", email);
      } catch {
        superuser = new Record($app.findCollectionByNameOrId("_superusers"));
      }
      superuser.setEmail(email);
      superuser.setPassword(password);
      $app.save(superuser);
    },
  }),
);
