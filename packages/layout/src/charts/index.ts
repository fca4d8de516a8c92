export { readDrawnCharts, type DrawnChart } from './read-charts.js';
export { labelNumber, fitScale, readValue, type ValueScale } from './scale.js';
