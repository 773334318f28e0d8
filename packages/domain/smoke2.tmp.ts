import { runSimulationStudy } from './src/indirect/simulation.ts';
console.log(runSimulationStudy().rows);
