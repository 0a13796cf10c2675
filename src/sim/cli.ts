#!/usr/bin/env node
/** The `npm run sim` entry point; see main.ts. */
import { main } from "./main.js";

process.exitCode = await main(process.argv.slice(2));
