import { deliverNotification } from './deliver-notification.stage.js';

/** Notifications: signed deliveries to the stores' receivers. */
export const stages = [deliverNotification];
export const schedules = () => [];
